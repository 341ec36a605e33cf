/**
 * What the rest of lendbot takes from retraining besides its attach line (src/daemon/daemon.ts,
 * attachRetrain) and `lendbot retrain` (src/cli/commands/retrain): the `retrain:` config section
 * and the agents' read of its rounds, both through src/daemon/wing-parts.ts, which names this
 * entry once.
 */
import { retrainSectionSchema } from './retrain-config.js';
import { registerRetrainTools } from './retrain-tools.js';

export const retrainWing = {
  config: { retrain: retrainSectionSchema.prefault({}).describe('retraining while live (docs/training.md, "Retraining while live")') },
  checks: [],
  tools: [registerRetrainTools],
} as const;
