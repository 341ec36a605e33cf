/**
 * The daemon's hold on a sandbox request while an agent's proposal waits (src/proposals/
 * request-holds.ts), over the sandbox's control API (`POST /_sandbox/loan_requests/ID/hold` and
 * `/release`). A person's wait is real time; the sandbox's borrower waits on the market's clock,
 * `speed` times faster, so the hold's end is the market's now plus the real wait times the speed.
 */
import type { Clock } from '../../../clock/clock.js';
import type { RequestHolds } from '../../../operator/agent-context.js';

async function post(url: string, body: unknown): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${(await response.text()).slice(0, 200)}`);
}

export function sandboxRequestHolds(sandboxUrl: string, marketClock: Clock, speed: number): RequestHolds {
  const at = (loanRequestId: number, action: 'hold' | 'release') =>
    new URL(`/_sandbox/loan_requests/${loanRequestId}/${action}`, sandboxUrl).href;
  return {
    hold: (loanRequestId, forRealMs) =>
      post(at(loanRequestId, 'hold'), { until: new Date(marketClock.now() + Math.max(0, forRealMs) * speed).toISOString() }),
    release: (loanRequestId) => post(at(loanRequestId, 'release'), {}),
  };
}
