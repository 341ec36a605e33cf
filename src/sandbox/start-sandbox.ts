/**
 * Starting a sandbox in-process: the market on a simulated clock, its HTTP server on a port
 * (a free one by default), a timer that keeps the market moving at `speed`, and a handle with
 * the URL, credentials, clock and control API.
 */
import { randomBytes } from 'node:crypto';
import { systemClock, type Clock } from '../clock/clock.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { createControl, type SandboxControl } from './control.js';
import { HOUR_MS } from '../clock/time-constants.js';
import { SandboxRuntime, type ProviderNames } from './runtime.js';
import { buildServer } from './server/app.js';
import { marketShape } from './shapes/index.js';
import { manualDrivenClock, SpeedClock } from './sim-clock.js';

export interface SandboxOptions {
  /** 0 = a free port (default 0 in-process, 8787 from the CLI). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 42; the same seed gives the same market. */
  seed?: number;
  /** Simulated seconds per real second (default 60); the market advances on a timer. */
  speed?: number;
  /** New loan requests per simulated hour (default 30). */
  arrivalsPerHour?: number;
  /** The market shape by name (default `classic`; see src/sandbox/shapes/). */
  shape?: string;
  /** true: time moves only through control.advance(), for tests. */
  manualClock?: boolean;
  /** ISO start of simulated time (default 2026-01-01T00:00:00Z). */
  startTime?: string;
  /** The investor's starting balance (default 0). */
  initialBalanceCents?: number;
  /** Default { a: 'provider_a', b: 'provider_b' }. */
  providerNames?: { a: string; b: string };
  log?: Logger;
  /** Simulated hours of market history before the start (default 24, or 0 with manualClock). */
  warmupHours?: number;
  /** Fixed credentials (default: fresh random ones). */
  credentials?: Partial<SandboxCredentials>;
  /** Real milliseconds to wait for a webhook answer (default 60 000, as the spec says). */
  webhookTimeoutMs?: number;
  /** Webhook tokens carry the event as claims (envelope, default) or only its data (data). */
  webhookTokenLayout?: 'envelope' | 'data';
  /** Signatures are also accepted within 5 minutes of this clock (default the system clock; null: only simulated time). */
  wallClock?: Clock | null;
}

export interface SandboxCredentials {
  apiKey: string;
  secretKey: string;
  /** Signs every webhook JWT; `control.subscribe` hands it out too. */
  webhookSecret: string;
}

export interface SandboxHandle {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  credentials: SandboxCredentials;
  /** The simulated clock; sign requests with it. */
  clock: Clock;
  /** In-process equivalent of the /_sandbox/ endpoints. */
  control: SandboxControl;
  close(): Promise<void>;
}

export const DEFAULT_START_TIME = '2026-01-01T00:00:00Z';
export const DEFAULT_PROVIDER_NAMES: ProviderNames = { a: 'provider_a', b: 'provider_b' };
// Often enough that a request arrives on time at any speed, rarely enough to cost nothing.
const TICK_MS = 100;

const token = (prefix: string): string => `${prefix}_${randomBytes(18).toString('base64url')}`;

/** Starts a sandbox marketplace and resolves once it is listening. */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const startMs = Date.parse(options.startTime ?? DEFAULT_START_TIME);
  if (Number.isNaN(startMs)) throw new RangeError(`startTime is not an ISO 8601 time: ${options.startTime ?? ''}`);
  const speed = options.speed ?? 60;
  if (!(speed > 0)) throw new RangeError(`speed must be above 0 (got ${speed})`);
  const manual = options.manualClock ?? false;
  const warmupMs = (options.warmupHours ?? (manual ? 0 : 24)) * HOUR_MS;
  const wallClock = options.wallClock === null ? undefined : (options.wallClock ?? systemClock);
  const clock = manual ? manualDrivenClock(startMs - warmupMs) : new SpeedClock(wallClock ?? systemClock, startMs - warmupMs, speed);
  const credentials: SandboxCredentials = {
    apiKey: options.credentials?.apiKey ?? token('sbx_key'),
    secretKey: options.credentials?.secretKey ?? token('sbx_secret'),
    webhookSecret: options.credentials?.webhookSecret ?? token('sbx_whsec'),
  };
  const shape = marketShape(options.shape);
  const log = (options.log ?? silentLogger).child({ component: 'sandbox' });
  const runtime = new SandboxRuntime({
    seed: options.seed ?? 42,
    arrivalsPerHour: options.arrivalsPerHour ?? 30,
    initialBalanceCents: options.initialBalanceCents ?? 0,
    clock,
    webhookSecret: credentials.webhookSecret,
    webhookTimeoutMs: options.webhookTimeoutMs ?? 60_000,
    providerNames: options.providerNames ?? DEFAULT_PROVIDER_NAMES,
    log,
    shape,
    ...(options.webhookTokenLayout === undefined ? {} : { webhookTokenLayout: options.webhookTokenLayout }),
  });
  if (warmupMs > 0) runtime.advance(warmupMs);
  const control = createControl(runtime, credentials.webhookSecret);
  const app = buildServer(runtime, control, credentials, wallClock);
  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the sandbox server has no TCP address');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const timer = manual ? undefined : setInterval(() => runtime.sync(), TICK_MS);
  timer?.unref();
  log.info({ url: `http://${host}:${address.port}`, speed: manual ? 'manual' : speed, shape: shape.name }, 'sandbox marketplace listening');
  let closed = false;
  return {
    url: `http://${host}:${address.port}`,
    credentials,
    clock,
    control,
    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      runtime.webhooks.close();
      await app.close();
    },
  };
}
