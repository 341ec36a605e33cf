import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { ServiceHealth } from '../../src/ops/service-health.js';
import { ServiceError } from '../../src/service/index.js';
import { captureLog } from '../log/log-capture.js';

const refusal = (serviceText: string, code: 'AUTH_INVALID_API_KEY' | 'AUTH_TIMESTAMP_OUT_OF_RANGE') =>
  new ServiceError(code, 'authentication refused', { method: 'GET', path: '/api/v3/loan_requests/', status: 403, serviceText });

describe('ServiceHealth', () => {
  it('is degraded from an authentication refusal until a call succeeds; notifies once an hour at most', () => {
    const clock = new ManualClock('2026-03-10T12:00:00Z');
    const { log, lines } = captureLog('debug');
    const sent: Array<Record<string, unknown>> = [];
    const health = new ServiceHealth({ clock, log, notify: (data) => sent.push(data) });

    health.observe('loanRequestPages', new ServiceError('SERVER_ERROR', 'server error', { method: 'GET', path: '/x', status: 500 }));
    expect(health.current()).toBeUndefined();

    health.observe('loanRequestPages', refusal('Invalid API Key', 'AUTH_INVALID_API_KEY'));
    health.observe('transferPages', refusal('Invalid API Key', 'AUTH_INVALID_API_KEY'));
    expect(health.current()).toEqual({
      code: 'AUTH_INVALID_API_KEY',
      reason: 'Invalid API Key on loanRequestPages: check LENDBOT_API_KEY; the key may have been revoked',
      sinceMs: clock.now(),
    });
    expect(sent).toEqual([{ code: 'AUTH_INVALID_API_KEY', reason: health.current()?.reason }]);

    health.observe('transferPages');
    expect(health.current()).toBeUndefined();
    expect(lines.map((line) => line.msg)).toEqual([
      'marketplace refuses our calls; the daemon is degraded until it accepts them again',
      'marketplace accepts our calls again',
    ]);

    // Flapping within the hour is logged, not notified again; after it, notified again.
    clock.advance(10 * 60_000);
    health.observe('makeOffer', refusal('Timestamp out of range', 'AUTH_TIMESTAMP_OUT_OF_RANGE'));
    expect(health.current()?.reason).toBe(
      "Timestamp out of range on makeOffer: check the machine's clock (signatures are valid for 5 minutes)",
    );
    expect(sent).toHaveLength(1);
    health.observe('makeOffer');
    clock.advance(60 * 60_000);
    health.observe('makeOffer', refusal('Timestamp out of range', 'AUTH_TIMESTAMP_OUT_OF_RANGE'));
    expect(sent).toHaveLength(2);
  });

  it('is degraded while the service redirects our calls to another origin, saying what to check', () => {
    const clock = new ManualClock('2026-03-10T12:00:00Z');
    const { log } = captureLog('debug');
    const health = new ServiceHealth({ clock, log });
    const redirected = new ServiceError('REDIRECT_REFUSED', 'redirected to http://127.0.0.1:9; not followed', {
      method: 'GET',
      path: '/api/v3/loan_requests/',
      status: 302,
    });
    health.observe('loanRequestPages', redirected);
    expect(health.current()).toEqual({
      code: 'REDIRECT_REFUSED',
      reason:
        'REDIRECT_REFUSED on loanRequestPages: check LENDBOT_BASE_URL: it should be the address the service answers on without redirecting',
      sinceMs: clock.now(),
    });
  });
});
