/**
 * What the rest of lendbot takes from retraining besides its attach line (src/daemon/daemon.ts,
 * attachRetrain) and `lendbot retrain` (src/cli/commands/retrain): the `retrain:` config section,
 * through src/daemon/wing-parts.ts (its agents' tool, retrain-tools.ts, through
 * src/daemon/wing-surfaces.ts).
 */
import { retrainSectionSchema } from './retrain-config.js';

export const retrainWing = {
  config: { retrain: retrainSectionSchema.prefault({}).describe('retraining while live (docs/training.md, "Retraining while live")') },
  checks: [],
} as const;
