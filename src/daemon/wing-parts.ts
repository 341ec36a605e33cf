/**
 * What the daemon's configuration and `lendbot doctor` take from the wings, each wing named once
 * here (its attach line is in daemon.ts): its config sections, composed into the daemon's schema
 * (daemon-config.ts), and its checks, which the doctor runs after its own. Deleting a wing's
 * folder, its entry here and its attach line removes it (test/layout/messaging-wing.test.ts).
 */
import type { z } from 'zod';
import type { Clock } from '../clock/clock.js';
import { messagingWing } from '../messaging/messaging-wing.js';

const WINGS = [messagingWing] as const;

/** The sections of every wing as one object (an intersection, so each key keeps its own schema). */
type SectionsOf<Wings> = Wings extends readonly [infer First extends { config: object }, ...infer Rest]
  ? First['config'] & SectionsOf<Rest>
  : object;

function sectionsOf<Wings extends readonly { config: Readonly<Record<string, z.ZodType>> }[]>(wings: Wings): SectionsOf<Wings> {
  return Object.assign({}, ...wings.map((wing) => wing.config)) as SectionsOf<Wings>;
}

/** Every wing's config sections, spread into the daemon's schema. */
export const WING_CONFIG = sectionsOf(WINGS);

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

function checksOf(wings: readonly { checks: readonly WingCheck[] }[]): readonly WingCheck[] {
  return wings.flatMap((wing) => wing.checks);
}

/** Every wing's doctor checks, in the order the wings are listed. */
export const WING_CHECKS = checksOf(WINGS);
