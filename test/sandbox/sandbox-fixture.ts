// A sandbox on a free port with a manual clock, and the project's own client pointed at it.
import {
  createMarketplaceClient,
  DEFAULT_RETRY,
  ServiceError,
  type MarketplaceClient,
  type NumericRangeFormat,
} from '../../src/service/index.js';
import type { Clock } from '../../src/clock/clock.js';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/sandbox/index.js';

export interface Fixture {
  sandbox: SandboxHandle;
  client: MarketplaceClient;
  close(): Promise<void>;
}

export interface ClientForOptions {
  rangeFormat?: NumericRangeFormat;
  /** The client's clock (signatures, back-off); the sandbox's own by default. */
  clock?: Clock;
  /** Retry reads as the daemon does (true), or fail at once (false, the default for client tests). */
  daemonRetries?: boolean;
}

/** The project's client, signed with the sandbox's credentials. */
export function clientFor(sandbox: SandboxHandle, options: ClientForOptions = {}): MarketplaceClient {
  return createMarketplaceClient(
    {
      baseUrl: sandbox.url,
      apiKey: sandbox.credentials.apiKey,
      secretKey: sandbox.credentials.secretKey,
      signatureMode: 'timestamp-secret',
      numericRangeFormat: options.rangeFormat ?? 'min-max-params',
      timeoutMs: 5000,
      retry: options.daemonRetries ? DEFAULT_RETRY : { ...DEFAULT_RETRY, readRetries: 0 },
    },
    { clock: options.clock ?? sandbox.clock },
  );
}

export async function startFixture(options: SandboxOptions = {}): Promise<Fixture> {
  const sandbox = await startSandbox({ manualClock: true, arrivalsPerHour: 0, wallClock: null, ...options });
  const client = clientFor(sandbox);
  return {
    sandbox,
    client,
    async close() {
      client.close();
      await sandbox.close();
    },
  };
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The ServiceError a call failed with (fails the test if it did not fail that way). */
export async function serviceFailure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return error;
}
