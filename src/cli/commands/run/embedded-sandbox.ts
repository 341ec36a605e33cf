/**
 * `npm start` with no credentials: the daemon starts the sandbox marketplace in-process on a
 * fast clock, funds the sandbox investor, subscribes its own webhook and says plainly that this
 * is the sandbox. LENDBOT_SANDBOX_SHAPE chooses the market shape (docs/sandbox.md).
 */
import { systemClock, type Clock } from '../../../clock/clock.js';
import type { Logger } from '../../../log/logger.js';
import { ConfigurationError, createMarketplaceClient, DEFAULT_RETRY, type MarketplaceClient } from '../../../service/index.js';
import { DEFAULT_SHAPE_NAME, MARKET_SHAPES, startSandbox, type SandboxHandle } from '../../../sandbox/index.js';
import type { DaemonConfigFile } from '../../../daemon/daemon-config.js';
import { freePort } from '../../../daemon/free-port.js';

export interface EmbeddedSandbox {
  handle: SandboxHandle;
  client: MarketplaceClient;
  clock: Clock;
  webhookPort: number;
  webhookUrl: string;
  /** Issued by the sandbox for our subscription; verifies its webhook tokens. */
  webhookSecret: string;
  close(): Promise<void>;
}

/** The market shape named by LENDBOT_SANDBOX_SHAPE, or the default one. */
export function embeddedSandboxShape(env: Readonly<Record<string, string | undefined>>): string {
  const name = env.LENDBOT_SANDBOX_SHAPE?.trim() || DEFAULT_SHAPE_NAME;
  if (!(name in MARKET_SHAPES)) throw new ConfigurationError(`LENDBOT_SANDBOX_SHAPE must be one of ${Object.keys(MARKET_SHAPES).join(', ')} (got "${name}")`);
  return name;
}

export async function startEmbeddedSandbox(config: DaemonConfigFile, log: Logger, shape: string = DEFAULT_SHAPE_NAME): Promise<EmbeddedSandbox> {
  const handle = await startSandbox({
    port: 0,
    seed: config.sandbox.seed,
    shape,
    speed: config.sandbox.speed,
    arrivalsPerHour: config.sandbox.arrivals_per_hour,
    initialBalanceCents: Math.round(config.sandbox.initial_balance * 100),
    log: log.child({ component: 'sandbox' }),
  });
  // Signatures carry wall-clock time (the sandbox accepts either clock): at a high speed, five
  // simulated minutes pass in milliseconds, too short a window for a signed request to arrive.
  const client = createMarketplaceClient(
    {
      baseUrl: handle.url,
      apiKey: handle.credentials.apiKey,
      secretKey: handle.credentials.secretKey,
      signatureMode: 'timestamp-secret',
      numericRangeFormat: 'min-max-params',
      timeoutMs: 10_000,
      retry: DEFAULT_RETRY,
    },
    { clock: systemClock, log },
  );
  const webhookPort = config.webhook.port === 0 ? await freePort() : config.webhook.port;
  handle.control.setBalance(Math.round(config.sandbox.initial_balance * 100));
  // Subscribing before we listen is fine: an event that finds nobody is retried, and the first
  // poll lists every request anyway.
  const webhookUrl = `http://127.0.0.1:${webhookPort}${config.webhook.path}`;
  const subscription = handle.control.subscribe(webhookUrl, 'lendbot@sandbox.local');
  log.warn(
    { sandboxUrl: handle.url, speed: config.sandbox.speed, shape },
    'SANDBOX MODE (--sandbox or LENDBOT_SANDBOX=true): lendbot is trading against its embedded simulated marketplace; no real money is involved',
  );
  const embedded: EmbeddedSandbox = {
    handle,
    client,
    clock: handle.clock,
    webhookPort,
    webhookUrl,
    webhookSecret: subscription.secret,
    async close() {
      client.close();
      await handle.close();
    },
  };
  return embedded;
}
