/**
 * The retraining loop's look, on `jobs.retrain` (every minute by default; docs/training.md,
 * "Retraining while live"): lay the store's managed versions and waiting candidates over the
 * strategy files (managed-strategies.ts), judge each candidate whose shadow period is over
 * (shadow-judgement.ts), and, when `retrain.enabled`, start a round for each live strategy whose
 * next round is due (retrain-round.ts). A look with nothing due reads two small tables and does
 * nothing else.
 */
import type { CompiledStrategy } from '../engine/index.js';
import type { Logger } from '../log/logger.js';
import { msFromIso } from '../store/index.js';
import type { ManagedStrategies } from './managed-strategies.js';
import type { RoundDeps } from './retrain-round.js';

/**
 * The rounds' code (the trainer, the backtests of the held-out check), loaded on first use: the
 * daemon starts without backtesting's modules (test/cli/command-modules.test.ts), and a loop
 * with nothing due never loads them.
 */
const roundsCode = async () => {
  const [round, shadow] = await Promise.all([import('./retrain-round.js'), import('./shadow-judgement.js')]);
  return { planRound: round.planRound, recordRound: round.recordRound, judgeShadow: shadow.judgeShadow };
};

export interface RetrainLoopDeps extends RoundDeps {
  log: Logger;
  managed: ManagedStrategies;
  /** The strategies from the files, as hot reload last loaded them. */
  fileStrategies(): readonly CompiledStrategy[];
  /** Swaps a new layer in between two requests. */
  swap(apply: () => void): Promise<void>;
}

export class RetrainLoop {
  constructor(private readonly deps: RetrainLoopDeps) {}

  async tick(): Promise<void> {
    const { deps } = this;
    await deps.managed.refresh(deps.fileStrategies(), deps.swap);
    const running = await deps.managed.running(deps.fileStrategies());
    let changed = false;
    for (const round of deps.repo.waiting()) {
      const strategy = running.find((r) => r.strategy.name === round.strategy);
      if (strategy === undefined) {
        deps.repo.decideRound(
          round.id,
          'refused',
          `${round.strategy} no longer runs live`,
          round.shadow,
          deps.clock.now(),
          deps.clock.now(),
        );
        changed = true;
        continue;
      }
      const verdict = await (await roundsCode()).judgeShadow(deps, round, strategy);
      if (verdict === undefined) continue;
      deps.log.info({ round: round.id, strategy: round.strategy, decision: verdict.decision }, `retraining: ${verdict.reason}`);
      changed ||= verdict.decision !== 'waiting';
    }
    if (deps.settings.enabled) {
      const waiting = new Set(deps.repo.waiting().map((round) => round.strategy));
      for (const strategy of running) {
        if (waiting.has(strategy.strategy.name) || !this.due(strategy.strategy.name)) continue;
        const { planRound, recordRound } = await roundsCode();
        let plan;
        try {
          plan = await planRound(deps, strategy);
        } catch (error) {
          // A round that throws is a bug or a broken file; recorded as refused, so it is not retried every minute.
          const nowMs = deps.clock.now();
          const message = error instanceof Error ? error.message : String(error);
          deps.log.error({ err: error, strategy: strategy.strategy.name }, 'retraining round failed');
          // resolvedLoans 0: the round did not get as far as counting them.
          const failed = { kind: 'refused' as const, reason: `the round failed: ${message}`, resolvedLoans: 0 };
          plan = {
            strategy: strategy.strategy.name,
            startedAtMs: nowMs,
            outcome: failed,
            decision: 'refused' as const,
            reason: failed.reason,
            nextAtMs: nowMs + deps.settings.everyMs,
          };
        }
        const id = recordRound(deps, plan, strategy);
        deps.log.info({ round: id, strategy: plan.strategy, decision: plan.decision }, `retraining: ${plan.reason}`);
        changed ||= plan.decision !== 'refused';
      }
    }
    if (changed) await deps.managed.refresh(deps.fileStrategies(), deps.swap);
  }

  /** A strategy's next round is due: never retrained, or its last round's next_at has come. */
  private due(strategy: string): boolean {
    const last = this.deps.repo.lastRound(strategy);
    return last === undefined || last.nextAt === null || this.deps.clock.now() >= msFromIso(last.nextAt);
  }
}
