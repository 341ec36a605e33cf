/**
 * What the daemon's configuration and `lendbot doctor` take from the wings, each wing named once
 * here (its attach line is in daemon.ts): its config sections, composed into the daemon's schema
 * (daemon-config.ts), its checks, run by the doctor after its own, and the learners it stored,
 * which `lendbot strategy explain --db` prices with; what a wing adds to the
 * operator listener is named in wing-surfaces.ts. Deleting a wing's folder,
 * its entry here and its attach line removes it (test/layout/messaging-wing.test.ts).
 */
import type { z } from 'zod';
import type { Clock } from '../clock/clock.js';
import { messagingWing } from '../messaging/messaging-wing.js';
import { retrainWing } from '../retrain/retrain-wing.js';

const WINGS = [messagingWing, retrainWing] as const;

/** The sections of every wing as one object (an intersection: each key keeps its own schema). */
type SectionsOf<Wings> = Wings extends readonly [infer First extends { config: object }, ...infer Rest]
  ? First['config'] & SectionsOf<Rest>
  : object;

function sectionsOf<Wings extends readonly { config: Readonly<Record<string, z.ZodType>> }[]>(wings: Wings): SectionsOf<Wings> {
  return Object.assign({}, ...wings.map((wing) => wing.config)) as SectionsOf<Wings>;
}

/** Every wing's config sections, spread into the daemon's schema. */
export const WING_CONFIG = sectionsOf(WINGS);

/** A line a wing adds to `lendbot doctor`, with what the doctor hands it (`notify`: `--notify`). */
interface WingCheck {
  name: string;
  run(input: {
    config: { [Key in keyof typeof WING_CONFIG]?: z.output<(typeof WING_CONFIG)[Key]> };
    env: Record<string, string | undefined>;
    notify: boolean;
    clock: Clock;
    timeoutMs: number;
  }): Promise<{ status: 'ok' | 'warn' | 'fail' | 'skip'; detail: string; fix?: string | undefined }>;
}

/** Every wing's doctor checks, in the order the wings are listed (typed here, so a wing's check must fit). */
const CHECKING: readonly { checks: readonly WingCheck[] }[] = WINGS;
export const WING_CHECKS = CHECKING.flatMap((wing) => wing.checks);
