/**
 * How much of the money sat idle, and why, for the report's headline (terminal, HTML and JSON).
 * The replay knows the two causes apart: the guard checks the cash before the caps, so a
 * request refused by a cap is one the free cash could have funded (the caps held the money
 * back); with no such refusal, the idle money had no request the strategy would take (the
 * market's flow for this balance).
 */
import type { BacktestSummary } from '../backtest-result.js';
import { dollars, pct } from './summary-lines.js';

/** Below this share of idle money while requests arrived, the headline gives no cause. */
const IDLE_CAUSE_FROM = 0.1;

export interface IdleHeadline {
  /** Free-cash share of the money from the first request to the last. */
  shareWhileRequests: number;
  /** The same to the last repayment. */
  share: number;
  /** caps: a cap refused requests the cash could fund; market: none did; null: little idle, or a dry run. */
  cause: 'caps' | 'market' | null;
  /** Requests the caps refused and their total (0 and 0 when none). */
  capRefusals: { requests: number; amountCents: number };
  /** Why, in words ("the caps refused ..."); null without a cause. */
  because: string | null;
  /** The words: "idle 28.8% while requests arrived (82.0% to the last repayment): the caps refused ...". */
  text: string;
}

type IdleFigures = Pick<BacktestSummary, 'idleShare' | 'idleShareWhileRequests' | 'capRefusals' | 'offers'>;

/** The cause in words, or null. */
function causeText(summary: IdleFigures, cause: IdleHeadline['cause']): string | null {
  const refused = summary.capRefusals ?? { requests: 0, amountCents: 0 };
  if (cause === 'caps') {
    const requests = `${refused.requests.toLocaleString('en-US')} request${refused.requests === 1 ? '' : 's'}`;
    return `the caps refused ${requests} (${dollars(refused.amountCents)} in all), each of which the free cash could have funded (the caps under risk: in the config)`;
  }
  if (cause === 'market') return 'the market offered too few requests this strategy would take for this balance (no cap refused one)';
  return null;
}

/** The idle share and its cause, for a run's summary; `settled` false (a dry run: offers never settle) gives no cause. */
export function idleHeadline(summary: IdleFigures, settled = true): IdleHeadline {
  const capRefusals = summary.capRefusals ?? { requests: 0, amountCents: 0 };
  const idle = summary.idleShareWhileRequests;
  let cause: IdleHeadline['cause'] = null;
  if (settled && idle >= IDLE_CAUSE_FROM) cause = capRefusals.requests > 0 ? 'caps' : 'market';
  const because = causeText(summary, cause);
  const base = `idle ${pct(idle)} while requests arrived (${pct(summary.idleShare)} to the last repayment)`;
  return {
    shareWhileRequests: idle,
    share: summary.idleShare,
    cause,
    capRefusals: { ...capRefusals },
    because,
    text: because === null ? base : `${base}: ${because}`,
  };
}
