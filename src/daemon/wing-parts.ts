/**
 * What the daemon's configuration and `lendbot doctor` take from the wings, each wing named once
 * here (its attach line is in daemon.ts): its config sections, composed into the daemon's schema
 * (daemon-config.ts), and its checks, which the doctor runs after its own. Deleting a wing's
 * folder, its entry here and its attach line removes it (test/layout/messaging-wing.test.ts).
 */
import type { z } from 'zod';
import type { Clock } from '../clock/clock.js';
import { messagingWing } from '../messaging/messaging-wing.js';

/** A wing's entry: its config sections by key, and its lines of `lendbot doctor`. */
interface WingEntry {
  config: Readonly<Record<string, z.ZodType>>;
  checks: readonly { name: string; run: (input: never) => Promise<unknown> }[];
}

const WINGS = [messagingWing] as const satisfies readonly WingEntry[];

/** The sections of every wing as one object (an intersection, so each key keeps its own schema). */
type SectionsOf<Wings> = Wings extends readonly [infer First extends WingEntry, ...infer Rest]
  ? First['config'] & SectionsOf<Rest>
  : object;

/** Every wing's config sections, spread into the daemon's schema. */
export const WING_CONFIG = Object.assign({}, ...WINGS.map((wing) => wing.config)) as SectionsOf<typeof WINGS>;

/** A line of `lendbot doctor` a wing adds, with what the doctor hands it. */
export interface WingCheck {
  name: string;
  run(input: {
    config: { [Key in keyof typeof WING_CONFIG]?: z.output<(typeof WING_CONFIG)[Key]> };
    env: Record<string, string | undefined>;
    /** `--notify`: send a test message. */
    notify: boolean;
    clock: Clock;
    timeoutMs: number;
  }): Promise<{ status: 'ok' | 'warn' | 'fail' | 'skip'; detail: string; fix?: string | undefined }>;
}

/** Every wing's doctor checks, in the order the wings are listed. */
export const WING_CHECKS: readonly WingCheck[] = WINGS.flatMap((wing) => wing.checks);
