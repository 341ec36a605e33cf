/** A client wired to a fixture server, recording the waits it asks for instead of sleeping. */
import { ManualClock } from '../../src/clock/clock.js';
import { createLogger } from '../../src/log/logger.js';
import {
  createMarketplaceClient,
  DEFAULT_RETRY,
  ServiceError,
  type MarketplaceClient,
  type ServiceConfig,
} from '../../src/service/index.js';
import { startFixtureServer, type FixtureOptions, type FixtureServer } from './fixture-server.js';

export const API_KEY = 'test-key';
export const SECRET_KEY = 'test-secret';

export interface Harness {
  server: FixtureServer;
  client: MarketplaceClient;
  clock: ManualClock;
  sleeps: number[];
  /** The client's log lines (warn and above), parsed. */
  logLines(): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/** `serverSkewSeconds` puts the fixture's clock ahead of the client's. */
export async function startHarness(
  overrides: Partial<ServiceConfig> = {},
  serverSkewSeconds = 0,
  fixture: Partial<Pick<FixtureOptions, 'sendDate' | 'nowSeconds' | 'refusalDelayMs'>> = {},
): Promise<Harness> {
  const clock = new ManualClock('2026-11-20T14:00:00Z');
  const server = await startFixtureServer({
    apiKey: API_KEY,
    secretKey: SECRET_KEY,
    nowSeconds: () => Math.floor(clock.now() / 1000) + serverSkewSeconds,
    ...fixture,
  });
  const lines: string[] = [];
  const log = createLogger({ level: 'warn', destination: { write: (line: string) => void lines.push(line) } });
  const sleeps: number[] = [];
  const client = createMarketplaceClient(
    {
      baseUrl: server.url,
      apiKey: API_KEY,
      secretKey: SECRET_KEY,
      signatureMode: 'timestamp-secret',
      numericRangeFormat: 'min-max-params',
      timeoutMs: 2000,
      retry: { ...DEFAULT_RETRY },
      ...overrides,
    },
    {
      clock,
      // Each wait moves the simulated clock, so a retry after Retry-After carries a later timestamp.
      sleep: (ms) => {
        sleeps.push(ms);
        clock.advance(ms);
        return Promise.resolve();
      },
      random: () => 0.5,
      log,
    },
  );
  return {
    server,
    client,
    clock,
    sleeps,
    logLines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    close: async () => {
      client.close();
      await server.close();
    },
  };
}

/** Awaits `promise`, expecting it to fail with a ServiceError, and returns that error. */
export async function serviceFailure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (failed: unknown) => failed,
  );
  if (error instanceof ServiceError) return error;
  throw new Error(`expected a ServiceError, got ${String(error)}`);
}
