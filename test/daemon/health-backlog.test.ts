/**
 * `/healthz` of a running daemon with a deep inbox (issue 24, item 12): a backlog the inbox worker
 * is working through is healthy however deep; one that waits with nothing processed for longer
 * than the limit is not. Before, any depth above 1,000 answered 503, so a container was marked
 * unhealthy for the whole of a drain. The daemon's manual clock stands in for time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../src/daemon/free-port.js';
import { LAST_POLL_KEY } from '../../src/store/index.js';
import { startPollFixture, type PollFixture } from './poll-fixture.js';

let fixture: PollFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const MINUTE = 60_000;

describe('/healthz with a deep webhook inbox', () => {
  it('is 503 while 1,200 events wait with none processed past 10 minutes, and 200 once the worker processes them, however many still wait', async () => {
    const port = await freePort();
    fixture = await startPollFixture({ config: { webhook: { host: '127.0.0.1', port } } });
    const f = fixture;
    await f.daemon.start();
    const health = async (): Promise<{ status: number; inbox: Record<string, unknown> }> => {
      // The poll is not what this test is about: keep it fresh.
      f.store.state.set(LAST_POLL_KEY, new Date(f.clock.now()).toISOString(), f.clock.now());
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      const body = (await response.json()) as { checks: { inbox: Record<string, unknown> } };
      return { status: response.status, inbox: body.checks.inbox };
    };
    let seq = 0;
    // Events of a topic lendbot does not act on: the worker marks each processed at once.
    const arrive = (count: number, atMs: number) =>
      f.store.inbox.insertMany(
        Array.from({ length: count }, () => ({ webhookUuid: `e${(seq += 1)}`, topic: 'loan_funded', data: {}, receivedAtMs: atMs })),
      );

    const startedMs = f.clock.now();
    arrive(1200, startedMs);
    expect(await health()).toMatchObject({ status: 200, inbox: { ok: true, depth: 1200 } });
    f.clock.advance(10 * MINUTE + 1_000);
    expect(await health()).toMatchObject({ status: 503, inbox: { ok: false, depth: 1200, stalled_seconds: 601, last_processed_at: null } });

    await f.daemon.runJob('inbox');
    expect(await health()).toMatchObject({ status: 200, inbox: { ok: true, depth: 0 } });
    // 1,200 more, as old as the first: the worker processed an event just now, so the inbox drains.
    arrive(1200, startedMs);
    expect(await health()).toMatchObject({
      status: 200,
      inbox: { ok: true, depth: 1200, stalled_seconds: 0, last_processed_at: new Date(f.clock.now()).toISOString() },
    });
  });
});
