/**
 * The control API over HTTP, under /_sandbox/ (not part of the spec, no authentication: the
 * sandbox is a local tool). Each route calls the in-process SandboxControl method of the same name.
 */
import type { FastifyInstance } from 'fastify';
import type { LoanRequestFields } from '../borrower-generator.js';
import type { SandboxControl } from '../control.js';
import type { SandboxFaults } from '../faults.js';
import { parseCents } from '../../domain/index.js';
import { bodyOf, HttpRefusal, idParam } from './http-helpers.js';

export function registerControlRoutes(app: FastifyInstance, control: SandboxControl): void {
  app.get('/_sandbox/state', () => ({ now: control.now(), shape: control.shape(), ...control.balance() }));

  app.post('/_sandbox/advance', (request) => {
    const body = bodyOf(request);
    const ms = typeof body.ms === 'number' ? body.ms : typeof body.hours === 'number' ? body.hours * 3_600_000 : NaN;
    control.advance(ms);
    return { now: control.now() };
  });

  app.post('/_sandbox/time', (request) => {
    const time = bodyOf(request).time;
    if (typeof time !== 'string') throw new HttpRefusal(400, { detail: 'time must be an ISO 8601 text' });
    control.setTime(time);
    return { now: control.now() };
  });

  app.post('/_sandbox/loan_requests', (request) => control.createLoanRequest(bodyOf(request) as LoanRequestFields));

  app.post('/_sandbox/loan_requests/:id/hold', (request) => {
    const until = bodyOf(request).until;
    if (typeof until !== 'string') throw new HttpRefusal(400, { detail: 'until must be an ISO 8601 text (simulated time)' });
    return control.holdLoanRequest(idParam(request, 'id'), until);
  });
  app.post('/_sandbox/loan_requests/:id/release', (request) => {
    control.releaseLoanRequest(idParam(request, 'id'));
    return { released: true };
  });

  app.post('/_sandbox/balance', (request) => {
    const body = bodyOf(request);
    const cents = typeof body.cents === 'number' ? body.cents : typeof body.amount === 'string' ? parseCents(body.amount) : NaN;
    control.setBalance(cents);
    return control.balance();
  });

  app.get('/_sandbox/offers', () => control.offers());
  app.get('/_sandbox/fund_calls', () => control.fundCalls());
  app.post('/_sandbox/offers/:id/accept', (request) => control.acceptOffer(idParam(request, 'id')));
  app.post('/_sandbox/offers/:id/reject', (request) => control.rejectOffer(idParam(request, 'id')));

  app.get('/_sandbox/webhooks', () => control.webhooks());
  app.post('/_sandbox/webhooks', (request) => {
    const body = bodyOf(request);
    return control.subscribe(String(body.url ?? ''), String(body.email ?? ''));
  });
  app.post('/_sandbox/webhooks/:id/reactivate', (request) => {
    control.reactivate(idParam(request, 'id'));
    return { reactivated: true };
  });

  app.post('/_sandbox/faults', (request) => {
    control.setFaults(bodyOf(request) as SandboxFaults);
    return { ok: true };
  });

  app.post('/_sandbox/investor', (request) => {
    const body = bodyOf(request);
    const flag = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
    const borrowing = flag(body.borrowing);
    const bankVerified = flag(body.bankVerified);
    control.setInvestor({ ...(borrowing === undefined ? {} : { borrowing }), ...(bankVerified === undefined ? {} : { bankVerified }) });
    return { ok: true };
  });

  app.get('/_sandbox/ground_truth/:id', (request) => control.groundTruth(idParam(request, 'id')));
  app.get('/_sandbox/billing', () => control.billing());
}
