/**
 * The cash and money view's own work, attached to the daemon's built parts in one call (as
 * attachOps is): the idle-cash watch, which records the series of idle money and tells when the
 * share stayed too high (idle-cash-alert.ts). Its surfaces, the forecast route and agent tool,
 * come through its wing entry (cash-flow-wing.ts). The figures themselves, the forecast and idle
 * cash now, stay in the status report every view reads (src/money/cash-flow-status.ts), so the
 * status, dashboard, metrics and digest keep one truth with this wing left out.
 */
import type { Job } from '../clock/scheduler.js';
import { idleCashSchedule, IdleCashWatch, type CashFlowParts } from './idle-cash-alert.js';

export type { CashFlowParts };

/** Recorded with or without notifications: status and the dashboard show the series and "above since". */
export function attachCashFlow(parts: CashFlowParts): { jobs: Job[] } {
  const watch = new IdleCashWatch(parts);
  return { jobs: [{ name: 'idle-cash', schedule: idleCashSchedule(parts.clocks.speed), run: async () => watch.check() }] };
}
