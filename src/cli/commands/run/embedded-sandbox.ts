/**
 * `npm start` with no credentials: the daemon starts the sandbox marketplace in a process of its
 * own (sandbox-process.ts) on a fast clock, funds the sandbox investor, subscribes its own webhook
 * and says plainly that this is the sandbox. LENDBOT_SANDBOX_SHAPE chooses the market shape
 * (docs/sandbox.md). In its own process, the sandbox's memory and CPU are not the daemon's: the
 * daemon's figures are what a live daemon would show (bench/daemon-memory.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { systemClock, type Clock } from '../../../clock/clock.js';
import type { Logger } from '../../../log/logger.js';
import { ConfigurationError } from '../../../domain/index.js';
import { createMarketplaceClient, DEFAULT_RETRY, type MarketplaceClient } from '../../../service/index.js';
import { DEFAULT_SHAPE_NAME, MARKET_SHAPES } from '../../../sandbox/shapes/index.js';
import type { DaemonConfigFile } from '../../../daemon/daemon-config.js';
import { freePort } from '../../../daemon/free-port.js';
import { MirrorClock, type FromSandbox, type SandboxStart, type ToSandbox } from './sandbox-messages.js';

export interface EmbeddedSandbox {
  url: string;
  client: MarketplaceClient;
  clock: Clock;
  webhookPort: number;
  /** Issued by the sandbox for our subscription; verifies its webhook tokens. */
  webhookSecret: string;
  /** The sandbox's process id. */
  pid: number;
  /** Tells the sandbox the daemon's webhook listener is up: its webhooks start (they are paused till then). */
  daemonListening(): void;
  close(): Promise<void>;
}

/** The market shape named by LENDBOT_SANDBOX_SHAPE, or the default one. */
export function embeddedSandboxShape(env: Readonly<Record<string, string | undefined>>): string {
  const name = env.LENDBOT_SANDBOX_SHAPE?.trim() || DEFAULT_SHAPE_NAME;
  if (!(name in MARKET_SHAPES))
    throw new ConfigurationError(`LENDBOT_SANDBOX_SHAPE must be one of ${Object.keys(MARKET_SHAPES).join(', ')} (got "${name}")`);
  return name;
}

// Compiled (dist/), the child is JavaScript; from the sources it is TypeScript and needs tsx's
// loader, resolved from this package (a bare `--import tsx` would resolve from the working folder).
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const CHILD_URL = new URL(`./sandbox-process.${FROM_SOURCES ? 'ts' : 'js'}`, import.meta.url);
const CLOSE_WAIT_MS = 5_000;

function childExecArgv(): string[] {
  // Not the daemon's own flags (--inspect would take the same port twice).
  if (!FROM_SOURCES) return [];
  return ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
}

export async function startEmbeddedSandbox(
  config: DaemonConfigFile,
  log: Logger,
  shape: string = DEFAULT_SHAPE_NAME,
): Promise<EmbeddedSandbox> {
  const webhookPort = config.webhook.port === 0 ? await freePort() : config.webhook.port;
  const webhookUrl = `http://127.0.0.1:${webhookPort}${config.webhook.path}`;
  const initialBalanceCents = Math.round(config.sandbox.initial_balance * 100);
  const child = fork(CHILD_URL, [], { execArgv: childExecArgv(), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const start: SandboxStart = {
    type: 'start',
    seed: config.sandbox.seed,
    shape,
    speed: config.sandbox.speed,
    arrivalsPerHour: config.sandbox.arrivals_per_hour,
    initialBalanceCents,
    logLevel: config.log_level,
    webhookUrl,
  };
  const ready = await started(child, start);
  const clock = new MirrorClock(ready.clock);
  let closing = false;
  child.on('message', (message: FromSandbox) => {
    if (message.type === 'clock') clock.jumped(message.jumpedMs);
  });
  child.on('exit', (code, signal) => {
    // The daemon cannot trade without its market: an error, which stops it in order, exit code 1.
    if (!closing) throw new Error(`the embedded sandbox (process ${child.pid}) exited unexpectedly (${signal ?? `code ${code}`})`);
  });
  // Signatures carry wall-clock time (the sandbox accepts either clock): at a high speed, five
  // simulated minutes pass in milliseconds, too short a window for a signed request to arrive.
  const client = createMarketplaceClient(
    {
      baseUrl: ready.url,
      apiKey: ready.apiKey,
      secretKey: ready.secretKey,
      signatureMode: 'timestamp-secret',
      numericRangeFormat: 'min-max-params',
      timeoutMs: 10_000,
      retry: DEFAULT_RETRY,
    },
    { clock: systemClock, log },
  );
  log.warn(
    { sandboxUrl: ready.url, speed: config.sandbox.speed, shape, sandboxPid: child.pid },
    'SANDBOX MODE (--sandbox or LENDBOT_SANDBOX=true): lendbot is trading against its embedded simulated marketplace; no real money is involved',
  );
  return {
    url: ready.url,
    client,
    clock,
    webhookPort,
    webhookSecret: ready.webhookSecret,
    pid: child.pid ?? 0,
    daemonListening() {
      if (!closing && child.connected) child.send({ type: 'listening' } satisfies ToSandbox);
    },
    async close() {
      closing = true;
      client.close();
      await stopChild(child);
    },
  };
}

type Ready = Extract<FromSandbox, { type: 'ready' }>;

/** Sends `start` and waits for the sandbox to listen, or for its failure. */
function started(child: ChildProcess, start: SandboxStart): Promise<Ready> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: FromSandbox): void => {
      if (message.type === 'ready') {
        child.off('exit', onExit);
        child.off('message', onMessage);
        resolve(message);
      } else if (message.type === 'failed') {
        reject(new Error(`the embedded sandbox did not start: ${message.message}`));
      }
    };
    const onExit = (code: number | null): void => reject(new Error(`the embedded sandbox exited before it started (code ${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(start);
  });
}

/** Asks the sandbox to close and waits for it to exit; kills it if it does not in time. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.connected) child.send({ type: 'close' });
  const timer = setTimeout(() => child.kill('SIGKILL'), CLOSE_WAIT_MS);
  await exited;
  clearTimeout(timer);
}
