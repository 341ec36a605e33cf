// Webhook retries against a slow receiver on a fast sandbox: the answer wait is real time (spec
// 6.4: up to 60 s), so no retry may start while an attempt still waits, however fast simulated
// hours pass (here one every 5 ms, and the market timer moves 20 simulated hours per tick).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';

interface Attempt {
  arrivedMs: number;
  answeredMs: number | null;
}

let sandbox: SandboxHandle | undefined;
let receiver: Server | undefined;
afterEach(async () => {
  await sandbox?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  sandbox = undefined;
  receiver = undefined;
});

/** A receiver that hands each request to `answer` and logs when it arrived and was answered. */
async function startReceiver(
  answer: (index: number, respond: (status: number) => void) => void,
): Promise<{ url: string; attempts: Attempt[] }> {
  const attempts: Attempt[] = [];
  receiver = createServer((request: IncomingMessage, response: ServerResponse) => {
    const attempt: Attempt = { arrivedMs: performance.now(), answeredMs: null };
    attempts.push(attempt);
    request.resume();
    answer(attempts.length - 1, (status) => {
      attempt.answeredMs = performance.now();
      response.statusCode = status;
      response.end('no');
    });
  });
  await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, attempts };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// 720 000 simulated seconds a second: an hour every 5 ms.
const FAST = 720_000;

describe('webhook retries at any simulated speed', () => {
  it('waits for a slow answer before the next attempt starts, and still retries after it', async () => {
    const { url, attempts } = await startReceiver((_index, respond) => setTimeout(() => respond(500), 300));
    sandbox = await startSandbox({ speed: FAST, arrivalsPerHour: 0, warmupHours: 0, webhookTimeoutMs: 5_000, wallClock: null });
    sandbox.control.subscribe(url, 'investor@example.com');
    sandbox.control.createLoanRequest();
    await until(() => attempts.length >= 3, 10_000);

    for (let i = 1; i < attempts.length; i++) {
      const previous = attempts[i - 1];
      expect(previous?.answeredMs).not.toBeNull();
      expect(attempts[i]?.arrivedMs).toBeGreaterThanOrEqual(previous?.answeredMs ?? Number.POSITIVE_INFINITY);
    }
    const [delivery] = sandbox.control.webhooks().deliveries;
    expect(delivery).toMatchObject({ status: 'pending', lastError: 'answered 500' });
    expect(delivery?.attempts).toBeGreaterThanOrEqual(3);
  });

  it('waits out an attempt nobody answers (the timeout, in real time) before retrying', async () => {
    const { url, attempts } = await startReceiver((index, respond) => {
      if (index > 0) respond(200);
    });
    sandbox = await startSandbox({ speed: FAST, arrivalsPerHour: 0, warmupHours: 0, webhookTimeoutMs: 400, wallClock: null });
    sandbox.control.subscribe(url, 'investor@example.com');
    sandbox.control.createLoanRequest();
    await until(() => attempts.length >= 2, 10_000);
    await sandbox.control.flushWebhooks();

    const [first, second] = attempts;
    expect(first?.answeredMs).toBeNull();
    expect((second?.arrivedMs ?? 0) - (first?.arrivedMs ?? 0)).toBeGreaterThanOrEqual(390);
    expect(attempts).toHaveLength(2);
    expect(sandbox.control.webhooks().deliveries[0]).toMatchObject({ status: 'delivered', attempts: 2, lastError: null });
  });
});
