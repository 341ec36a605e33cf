/**
 * `GET /api/overview`: the dashboard's first screen in one answer: the status report
 * (`lendbot status`), the caps it is measured against, and when the last webhook arrived.
 */
import { lossRatesFromConfig } from '../../money/loss-rates-config.js';
import { statusClock } from '../../ops/status-clock.js';
import { buildStatusReport } from '../../ops/status-report.js';
import { capsNow, type CapsNow, type RiskLimits } from '../../risk/index.js';
import type { OperatorApp } from '../operator-listener.js';
import type { ApiDeps } from './api-deps.js';
import type { OverviewAnswer, OverviewLimits } from './api-types.js';
import { DAY_MS } from '../../clock/time-constants.js';

/** The caps in cents as the guard reads them now: a share of the capital already turned into cents (the status report's). */
function limitsOf(limits: RiskLimits, caps: CapsNow): OverviewLimits {
  const maxExposure = caps.maxOpenExposureCents ?? null;
  const byLevel: Record<string, number> = {};
  if (maxExposure !== null) {
    for (const [level, share] of Object.entries(limits.maxShareByRiskLevel ?? {})) {
      if (share !== undefined) byLevel[level] = Math.floor(share * maxExposure);
    }
  }
  return {
    maxOffersPerDay: limits.maxOffersPerDay ?? null,
    maxAmountPerDayCents: caps.maxAmountPerDayCents ?? null,
    maxExposureCents: maxExposure,
    maxExposureByRiskLevelCents: byLevel,
    minCashReserveCents: limits.minCashReserveCents,
    maxPerBorrowerCents: caps.maxPerBorrowerCents ?? null,
    capitalCents: caps.capitalCents,
    allowedRiskLevels: [...limits.allowedRiskLevels],
    killSwitch: limits.killSwitch,
  };
}

export function registerOverviewRoutes(api: OperatorApp, deps: ApiDeps): void {
  const { context } = deps;
  api.get('/overview', async (_request, reply) => {
    const nowMs = context.clock.now();
    const strategies = context.strategies();
    const limits = context.limits();
    // Reading the pause through the protections lifts one whose time is over, as the daemon would.
    context.protections.activePause();
    const status = buildStatusReport({
      store: context.store,
      nowMs,
      limits,
      budgets: strategies.map((strategy) => ({
        strategy: strategy.name,
        monthlyBudgetCents: strategy.dataPolicy.monthlyBudgetCents,
        ...(strategy.marketSource === undefined ? {} : { marketSource: strategy.marketSource }),
      })),
      dryRun: context.dryRun,
      // Equity on the balance card: the same figure as the returns section and lendbot status.
      equityLossRates: lossRatesFromConfig(context.config),
      // Which clock the times are in (the sandbox's simulated one, and its speed): the dashboard names it.
      clock: statusClock(context.store.state, context.realClock.now()).clock,
    });
    const lastAt = context.store.inbox.lastReceivedAt();
    const answer: OverviewAnswer = {
      mode: context.mode,
      dryRun: context.dryRun,
      strategies: strategies.map((strategy) => strategy.name),
      status,
      lastWebhook: lastAt === undefined ? null : { at: lastAt, ageSeconds: Math.max(0, Math.round((nowMs - Date.parse(lastAt)) / 1000)) },
      limits: limitsOf(
        limits,
        capsNow(limits, {
          balanceCents: status.balanceCents,
          reservedCents: status.reservedCents,
          exposureCents: status.exposure.totalCents,
        }),
      ),
      last24h: context.store.decisions.countByAction({ sinceMs: nowMs - DAY_MS, untilMs: nowMs + 1 }),
    };
    return reply.header('cache-control', 'no-store').send(answer);
  });
}
