/**
 * The embedded sandbox's own process (`lendbot run --sandbox` forks it): the simulated
 * marketplace, its market timer and its webhook sender, apart from the daemon, so the daemon's
 * memory is its own and can be measured. It starts when the run command sends `start`, stops
 * when it sends `close`, and also when the run command's process is gone (the IPC channel
 * closes): it never outlives the daemon. Ctrl-C reaches every process of the terminal's group;
 * the sandbox ignores it and stays up while the daemon finishes the work in flight, which may
 * still call the marketplace.
 */
import { createLogger } from '../../../log/logger.js';
import { startSandbox, type SandboxHandle } from '../../../sandbox/index.js';
import { readClock, type FromSandbox, type SandboxStart, type ToSandbox } from './sandbox-messages.js';

// Often enough that the daemon's copy of the clock follows a jump within a market tick.
const CLOCK_CHECK_MS = 100;

let handle: SandboxHandle | undefined;
/** The daemon's subscription, paused until the daemon says it listens. */
let subscriptionId: number | undefined;
let closing = false;

function send(message: FromSandbox, then?: () => void): void {
  process.send?.(message, undefined, {}, () => then?.());
}

async function start(options: SandboxStart): Promise<void> {
  const log = createLogger({ level: options.logLevel as 'info' }).child({ component: 'sandbox' });
  handle = await startSandbox({
    port: 0,
    seed: options.seed,
    shape: options.shape,
    speed: options.speed,
    arrivalsPerHour: options.arrivalsPerHour,
    initialBalanceCents: options.initialBalanceCents,
    log,
  });
  handle.control.setBalance(options.initialBalanceCents);
  // Subscribed before the daemon listens (it needs the secret to start), but paused until it
  // says it listens: an event sent before would only fail and be retried, with a warning on a
  // new user's first screen. The daemon's first poll lists the requests made meanwhile.
  const subscription = handle.control.subscribe(options.webhookUrl, 'lendbot@sandbox.local', { active: false });
  subscriptionId = subscription.id;
  const reading = readClock(handle.clock, options.speed);
  send({
    type: 'ready',
    url: handle.url,
    apiKey: handle.credentials.apiKey,
    secretKey: handle.credentials.secretKey,
    webhookSecret: subscription.secret,
    clock: reading,
  });
  watchJumps(handle, reading.atMs, reading.wallMs, options.speed);
}

/** Tells the daemon when the control API moves simulated time by hand. */
function watchJumps(sandbox: SandboxHandle, atMs: number, wallMs: number, speed: number): void {
  let jumpedMs = 0;
  const timer = setInterval(() => {
    const now = readClock(sandbox.clock, speed);
    const expected = Math.floor(atMs + jumpedMs + (now.wallMs - wallMs) * speed);
    // A millisecond either way is rounding, not a jump.
    if (Math.abs(now.atMs - expected) <= 1) return;
    jumpedMs += now.atMs - expected;
    send({ type: 'clock', jumpedMs });
  }, CLOCK_CHECK_MS);
  timer.unref();
}

async function close(): Promise<void> {
  if (closing) return;
  closing = true;
  await handle?.close();
  process.exit(0);
}

process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
process.on('disconnect', () => void close());
process.on('message', (message: ToSandbox) => {
  if (message.type === 'close') {
    void close();
    return;
  }
  if (message.type === 'listening') {
    if (subscriptionId !== undefined) handle?.control.reactivate(subscriptionId);
    return;
  }
  start(message).catch((error: unknown) => {
    // Exit once the message is on its way: the run command reports it.
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }, () => process.exit(1));
  });
});
