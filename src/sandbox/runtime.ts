/**
 * One running sandbox without its HTTP server: the market, the simulated clock that drives it,
 * the webhook sender and the fault injector. `sync` brings the market up to the clock; the server
 * calls it before every request and a timer calls it between requests.
 */
import { DAY_MS } from '../clock/time-constants.js';
import type { Logger } from '../log/logger.js';
import { formatCents } from '../domain/index.js';
import { FaultInjector } from './faults.js';
import { Market } from './market.js';
import type { LoanRequestRecord } from './market-types.js';
import { forkRandom } from './random.js';
import type { MarketShape } from './shapes/index.js';
import type { DrivenClock } from './sim-clock.js';
import { NEW_LOAN_REQUEST_TOPIC, WebhookSender } from './webhook-sender.js';
import { totalCents } from './offer-rules.js';

export interface ProviderNames {
  a: string;
  b: string;
}

export interface RuntimeOptions {
  seed: number;
  arrivalsPerHour: number;
  initialBalanceCents: number;
  clock: DrivenClock;
  webhookSecret: string;
  webhookTimeoutMs: number;
  providerNames: ProviderNames;
  log: Logger;
  shape?: MarketShape;
  /** Where webhook tokens put the event (default envelope; webhook-sender.ts). */
  webhookTokenLayout?: 'envelope' | 'data';
}

/** Provider prices of marketplace 4.5, in cents. */
export const PROVIDER_A_MONTHLY_CENTS = 20_000;
export const PROVIDER_B_PER_REQUEST_CENTS = 150;

export class SandboxRuntime {
  readonly market: Market;
  readonly clock: DrivenClock;
  readonly webhooks: WebhookSender;
  readonly faults: FaultInjector;
  readonly providerNames: ProviderNames;
  readonly log: Logger;

  constructor(options: RuntimeOptions) {
    this.clock = options.clock;
    this.providerNames = options.providerNames;
    this.log = options.log;
    this.faults = new FaultInjector(options.seed);
    this.market = new Market({
      seed: options.seed,
      startMs: options.clock.now(),
      arrivalsPerHour: options.arrivalsPerHour,
      initialBalanceCents: options.initialBalanceCents,
      ...(options.shape ? { shape: options.shape } : {}),
    });
    // Webhooks carry the market's time: an event raised while catching up is stamped when it happened.
    this.webhooks = new WebhookSender({
      clock: { now: () => this.market.now() },
      secret: options.webhookSecret,
      random: forkRandom(options.seed, 'webhooks'),
      timeoutMs: options.webhookTimeoutMs,
      drop: () => this.faults.dropWebhook(),
      ...(options.webhookTokenLayout === undefined ? {} : { tokenLayout: options.webhookTokenLayout }),
      log: options.log.child({ component: 'sandbox-webhooks' }),
    });
    this.market.onNewLoanRequest((request) => this.webhooks.emit(NEW_LOAN_REQUEST_TOPIC, newLoanRequestData(request)));
  }

  /** Runs the market up to the clock and retries due webhooks. */
  sync(): void {
    this.market.advanceTo(this.clock.now());
    this.webhooks.tick();
    this.pruneDaily();
  }

  private lastPruneMs = Number.NEGATIVE_INFINITY;

  /**
   * Once a simulated day, forgets what nobody can ask about any more: requests closed without a
   * loan over 35 days ago (the list shows 30 days) and webhook deliveries settled over two days
   * ago (retries stop after 24 hours). Without it a long-running server grows without bound.
   */
  private pruneDaily(): void {
    const now = this.clock.now();
    if (now - this.lastPruneMs < DAY_MS) return;
    this.lastPruneMs = now;
    this.market.pruneClosed(now - 35 * DAY_MS);
    this.webhooks.prune(now - 2 * DAY_MS);
  }

  /** Moves simulated time forward by `ms` and runs the market to it. */
  advance(ms: number): void {
    this.clock.advance(ms);
    this.sync();
  }

  /** Bills a provider call (A: flat per month of use; B: per request) . */
  bill(provider: 'a' | 'b', loanRequestId: number): void {
    if (provider === 'a') this.market.providerAMonths.add(new Date(this.market.now()).toISOString().slice(0, 7));
    else this.market.providerBCalls.push(loanRequestId);
  }

  /** What the sandbox investor owes the providers so far. */
  billing(): Billing {
    const months = [...this.market.providerAMonths].sort();
    const aCents = months.length * PROVIDER_A_MONTHLY_CENTS;
    const bCents = this.market.providerBCalls.length * PROVIDER_B_PER_REQUEST_CENTS;
    return {
      providerA: { name: this.providerNames.a, monthlyFee: formatCents(PROVIDER_A_MONTHLY_CENTS), months, total: formatCents(aCents) },
      providerB: {
        name: this.providerNames.b,
        perRequest: formatCents(PROVIDER_B_PER_REQUEST_CENTS),
        requests: this.market.providerBCalls.length,
        total: formatCents(bCents),
      },
      total: formatCents(aCents + bCents),
    };
  }
}

export interface Billing {
  providerA: { name: string; monthlyFee: string; months: string[]; total: string };
  providerB: { name: string; perRequest: string; requests: number; total: string };
  total: string;
}

/** The `data` of a `new_loan_request_created` event (marketplace 6.2). */
export function newLoanRequestData(request: LoanRequestRecord): Record<string, unknown> {
  return {
    loan_request_id: request.id,
    loan_request_amount: totalCents(request) === 0 ? 0 : request.loanAmountCents / 100,
    loan_request_type: request.crypto ? 'crypto' : 'cash',
    has_banking_data: request.bank !== null,
    automated_loan_request: request.automated,
  };
}
