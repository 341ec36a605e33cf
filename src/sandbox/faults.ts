/**
 * Fault injection for the HTTP API and webhooks, so the daemon's retries, validation and polling
 * fallback can be exercised. Faults draw from their own random stream: turning them on never
 * changes the market itself.
 */
import { forkRandom, type Random } from './random.js';

export interface SandboxFaults {
  /** Share (0-1) of API requests answered 500. */
  errorRate?: number;
  /** Real milliseconds added before every API answer. */
  latencyMs?: number;
  /** The next N API requests are answered 429. */
  rateLimitBurst?: number;
  /** Retry-After seconds on those 429s (default 1). */
  retryAfterSeconds?: number;
  /** Share (0-1) of list items replaced by an item that fails the resource schema. */
  malformedRate?: number;
  /** Share (0-1) of webhook deliveries silently lost. */
  dropWebhookRate?: number;
}

export class FaultInjector {
  private faults: Required<SandboxFaults> = {
    errorRate: 0,
    latencyMs: 0,
    rateLimitBurst: 0,
    retryAfterSeconds: 1,
    malformedRate: 0,
    dropWebhookRate: 0,
  };
  private readonly random: Random;

  constructor(seed: number) {
    this.random = forkRandom(seed, 'faults');
  }

  /** Replaces the given fault settings; others keep their value. */
  set(faults: SandboxFaults): void {
    for (const [key, value] of Object.entries(faults)) {
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new RangeError(`${key} must be a number >= 0`);
      if (key.endsWith('Rate') && value > 1) throw new RangeError(`${key} must be between 0 and 1`);
    }
    this.faults = { ...this.faults, ...definedOnly(faults) };
  }

  current(): Required<SandboxFaults> {
    return { ...this.faults };
  }

  latencyMs(): number {
    return this.faults.latencyMs;
  }

  /** Whether this request takes one of the 429 burst; returns the Retry-After seconds if so. */
  takeRateLimit(): number | undefined {
    if (this.faults.rateLimitBurst <= 0) return undefined;
    this.faults.rateLimitBurst -= 1;
    return this.faults.retryAfterSeconds;
  }

  serverError(): boolean {
    return this.faults.errorRate > 0 && this.random.chance(this.faults.errorRate);
  }

  /** The items with some replaced by malformed ones (an id that is not a number). */
  corrupt<T>(items: readonly T[]): unknown[] {
    if (this.faults.malformedRate <= 0) return [...items];
    return items.map((item) => (this.random.chance(this.faults.malformedRate) ? { id: 'malformed', sandbox_fault: true } : item));
  }

  dropWebhook(): boolean {
    return this.faults.dropWebhookRate > 0 && this.random.chance(this.faults.dropWebhookRate);
  }
}

function definedOnly(faults: SandboxFaults): Partial<Required<SandboxFaults>> {
  return Object.fromEntries(Object.entries(faults).filter(([, value]) => value !== undefined));
}
