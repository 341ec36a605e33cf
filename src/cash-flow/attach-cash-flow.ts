/**
 * The cash and money view's own work, attached to the daemon's built parts in one call (as
 * attachOps is): the idle-cash watch, which records the series of idle money and tells when the
 * share stayed too high (idle-cash-alert.ts). Its surfaces, the forecast route and agent tool,
 * come through its wing entry (cash-flow-wing.ts). The figures themselves, the forecast and idle
 * cash now, stay in the status report every view reads (src/ops/cash-flow-status.ts), so the
 * status, dashboard, metrics and digest keep one truth with this wing left out.
 */
import type { Clock } from '../clock/clock.js';
import type { Job } from '../clock/scheduler.js';
import type { NotificationEvent } from '../domain/index.js';
import type { Logger } from '../log/logger.js';
import type { RiskLimits } from '../risk/index.js';
import type { Store } from '../store/index.js';
import { idleCashSchedule, IdleCashWatch } from './idle-cash-alert.js';

/** What the cash-flow wing reads of the daemon's built parts (src/daemon/daemon-parts.ts, DaemonParts). */
export interface CashFlowParts {
  store: Store;
  log: Logger;
  dryRun: boolean;
  /** `real`: the alert's hours also on the machine's clock when `speed` (simulated seconds per real second) is above 1. */
  clocks: { market: Clock; real: Clock; speed: number };
  active: { limits: () => RiskLimits };
  /** Where the idle-cash alert goes (src/daemon/notice-relay.ts). */
  instruments: { notices: { notify(event: NotificationEvent, data: Record<string, unknown>): void } };
}

export interface CashFlowWatch {
  jobs: Job[];
}

export function attachCashFlow(parts: CashFlowParts): CashFlowWatch {
  const { market: clock, real, speed } = parts.clocks;
  // Recorded with or without notifications: status and the dashboard show the series and "above since".
  const watch = new IdleCashWatch({
    store: parts.store,
    clock,
    ...(speed > 1 ? { wallClock: real } : {}),
    log: parts.log.child({ component: 'idle-cash' }),
    limits: parts.active.limits,
    dryRun: parts.dryRun,
    notify: (event, data) => parts.instruments.notices.notify(event, data),
  });
  return { jobs: [{ name: 'idle-cash', schedule: idleCashSchedule(speed), run: async () => watch.check() }] };
}
