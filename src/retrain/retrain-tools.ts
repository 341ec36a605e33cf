/**
 * Retraining while live, read-only for agents (docs/training.md, "Retraining while live"): the
 * rounds with their evidence and decision, and the strategy versions, as `lendbot retrain
 * history --json` gives them. Rolling back stays a person's command.
 */
import { z } from 'zod';
import type { ToolDeps } from '../operator/agent-context.js';
import { answer } from '../operator/tool-answer.js';
import { createRetrainRepository, databaseOf } from '../store/index.js';

export function registerRetrainTools({ server, context }: ToolDeps): void {
  server.registerTool(
    'get_retrain_history',
    {
      title: 'Retraining rounds and strategy versions',
      description:
        "The retraining loop's rounds, newest first (candidate, fit and held-out figures per borrower world, shadow figures, decision: promoted, refused or waiting, and why), and the strategy versions it promoted or a rollback restored (the newest of each strategy is in force).",
      inputSchema: {
        strategy: z.string().optional().describe('strategy name'),
        limit: z.number().int().min(1).max(100).default(20),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ strategy, limit }) => {
      const repo = createRetrainRepository(databaseOf(context.store));
      // The candidate's full YAML stays out: the figures and decision are what an agent reads.
      const rounds = repo
        .rounds({ limit, ...(strategy === undefined ? {} : { strategy }) })
        .map(({ candidateText: _text, ...round }) => round);
      const versions = repo
        .versions(strategy)
        .map(({ text, ...version }) => ({ ...version, source: text === null ? 'file' : 'retrained' }));
      const last = rounds[0];
      const text =
        last === undefined
          ? 'No retraining round yet.'
          : `Last round #${last.id} of ${last.strategy} (${last.startedAt}): ${last.decision}, ${last.reason}. ${versions.length} strategy versions.`;
      return answer(text, { rounds, versions });
    },
  );
}
