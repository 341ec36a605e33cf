/**
 * What the daemon's configuration and `lendbot doctor` take from the wings, each wing named once
 * here (its attach line is in daemon.ts): its config sections, composed into the daemon's schema
 * (daemon-config.ts), its checks, run by the doctor after its own, and its agent tools, which the
 * daemon's connector and `lendbot mcp` register after their own, and its API routes, served
 * under `/api` after the API's own. Deleting a wing's folder,
 * its entry here and its attach line removes it (test/layout/messaging-wing.test.ts).
 */
import type { z } from 'zod';
import type { Clock } from '../clock/clock.js';
import { cashFlowWing } from '../cash-flow/cash-flow-wing.js';
import { messagingWing } from '../messaging/messaging-wing.js';
import type { AgentTools, ApiRoutes } from '../operator/agent-context.js';
import { retrainWing } from '../retrain/retrain-wing.js';

const WINGS = [messagingWing, retrainWing, cashFlowWing] as const;

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
export interface WingCheck {
  name: string;
  run(input: {
    config: { [Key in keyof typeof WING_CONFIG]?: z.output<(typeof WING_CONFIG)[Key]> };
    env: Record<string, string | undefined>;
    notify: boolean;
    clock: Clock;
    timeoutMs: number;
  }): Promise<{ status: 'ok' | 'warn' | 'fail' | 'skip'; detail: string; fix?: string | undefined }>;
}

/** The wings typed here, so a wing's checks, agent tools and routes must fit. */
const TYPED: readonly { checks: readonly WingCheck[]; tools?: readonly AgentTools[]; routes?: readonly ApiRoutes[] }[] = WINGS;
/** Every wing's doctor checks, agent tools and API routes, in the order the wings are listed. */
export const WING_CHECKS = TYPED.flatMap((wing) => wing.checks);
export const WING_TOOLS = TYPED.flatMap((wing) => wing.tools ?? []);
export const WING_ROUTES = TYPED.flatMap((wing) => wing.routes ?? []);
