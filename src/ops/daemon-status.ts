/**
 * The status report as the running daemon reads it, from its built parts: the one source every
 * outward surface over the daemon reads its figures from (Telegram's /status and /profit, the
 * digest's idle cash, the daily summary; issue 36, item 5: /status and /profit once disagreed).
 * Operations use its budgets for the metrics; messaging (src/messaging/) reads the report itself.
 */
import type { Clock } from '../clock/clock.js';
import type { CompiledStrategy } from '../engine/index.js';
import type { RiskLimits } from '../risk/index.js';
import type { Store } from '../store/index.js';
import type { LossRates } from '../money/equity.js';
import { statusClock } from './status-clock.js';
import { buildStatusReport, type StatusReport, type StrategyBudget } from './status-report.js';

/** What the daemon's status report reads of its parts (src/daemon/daemon-parts.ts, DaemonParts). */
export interface DaemonStatusParts {
  store: Store;
  /** Real time: the status says which clock its times are in, as `lendbot status` does (status-clock.ts). */
  clocks: { real: Clock };
  dryRun: boolean;
  active: { strategies: () => readonly CompiledStrategy[]; limits: () => RiskLimits };
  /** The config's expected-loss shares, for the equity line. */
  returns: { lossRates: LossRates };
}

/** Each configured strategy's monthly data budget, as the status and the metrics show it. */
export function strategyBudgets(strategies: readonly CompiledStrategy[]): StrategyBudget[] {
  return strategies.map((strategy) => ({ strategy: strategy.name, monthlyBudgetCents: strategy.dataPolicy.monthlyBudgetCents }));
}

/** The daemon's status report at a time of the run's clock. */
export function daemonStatus(parts: DaemonStatusParts): (nowMs: number) => StatusReport {
  const { store } = parts;
  const { strategies, limits } = parts.active;
  return (nowMs) =>
    buildStatusReport({
      store,
      nowMs,
      limits: limits(),
      budgets: strategyBudgets(strategies()),
      dryRun: parts.dryRun,
      clock: statusClock(store.state, parts.clocks.real.now()).clock,
      // Telegram's /status has the equity line `lendbot status` prints.
      equityLossRates: parts.returns.lossRates,
    });
}
