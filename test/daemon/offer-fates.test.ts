// What became of the daemon's offers, end to end against the real sandbox: some accepted, some
// lost to a competitor or a cancellation, one left unanswered until it expired and its request
// aged out of the list, one still pending. `lendbot record export` writes those fates, the
// training code reads them, and a backtest of the export says how much it could not judge.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRecording } from '../../src/backtest/index.js';
import { fitMarket } from '../../src/backtest/train/market-fit.js';
import { trainingData } from '../../src/backtest/train/index.js';
import { readRecording, type RecordingLine } from '../../src/recording/index.js';
import { LIST_WINDOW_MS } from '../../src/store/index.js';
import { runCli } from '../cli/run-cli.js';
import { OFFER_ALL, offeredRequest, startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

const HOUR = 3_600_000;

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const fateOf = (h: DaemonHarness, id: number) => {
  const offer = h.store.offers.getByRequest(id);
  if (!offer) throw new Error(`no offer on ${id}`);
  return h.store.offers.fate(offer, { nowMs: h.sandbox.clock.now(), expiryMs: 72 * HOUR })?.fate;
};

describe('offer fates from a daemon run against the sandbox', () => {
  it('records accepted, lost, expired and pending offers, exports them, trains on them and backtests with the unjudged share', async () => {
    harness = await startDaemonHarness({ sandbox: { arrivalsPerHour: 0 } });
    const h = harness;
    const control = h.sandbox.control;
    const decide = { decisionDelayMs: 2 * HOUR };
    const won = await offeredRequest(h, { ...decide, competitorOffers: 0 });
    const outbid = await offeredRequest(h, { ...decide, competitorRates: [0.031] });
    const walkedAway = await offeredRequest(h, { ...decide, competitorOffers: 0, takeUp: 0 });
    const canceled = await offeredRequest(h, { ...decide, competitorOffers: 0, cancel: true });
    const createdMs = h.sandbox.clock.now();

    await h.daemon.runJob('poll');
    control.advance(3 * HOUR);
    await h.daemon.runJob('poll');
    // Before the account sync, our won request has left the list like the lost ones.
    expect(fateOf(h, won)).toBe('lost');
    await h.daemon.runJob('sync');
    expect([won, outbid, walkedAway, canceled].map((id) => fateOf(h, id))).toEqual(['accepted', 'lost', 'pending', 'lost']);

    // Our offer's life (72 h) ends with its request still listed: expired.
    control.advance(70 * HOUR);
    await h.daemon.runJob('poll');
    expect(fateOf(h, walkedAway)).toBe('expired');

    // The request stays listed to the end of its 30 days, then ages out: nobody funded it.
    control.advance(createdMs + LIST_WINDOW_MS - HOUR / 2 - h.sandbox.clock.now());
    await h.daemon.runJob('poll');
    control.advance(HOUR);
    await h.daemon.runJob('poll');
    const listing = h.store.offers.fate(h.store.offers.getByRequest(walkedAway)!, { nowMs: h.sandbox.clock.now(), expiryMs: 72 * HOUR });
    expect(listing).toMatchObject({ fate: 'expired', agedOut: true });
    expect(listing?.leftListAt).toBe(new Date(h.sandbox.clock.now()).toISOString());

    const pending = await offeredRequest(h, { ...decide, competitorOffers: 0 });
    await h.daemon.runJob('sync');
    await h.daemon.stop();

    const file = join(h.dir, 'own.jsonl');
    const exported = await runCli(['record', 'export', '--db', join(h.dir, 'lendbot.db'), '--out', file]);
    expect(exported).toMatchObject({ code: 0, stderr: 'wrote 5 requests to ' + file + '\n' });
    const lines = new Map<number, RecordingLine>();
    for await (const line of readRecording(file, (issue) => expect.unreachable(issue.message))) lines.set(line.loan_request.id, line);
    const statuses = Object.fromEntries([...lines].map(([id, line]) => [id, line.offer?.status]));
    expect(statuses).toEqual({ [won]: 'accepted', [outbid]: 'lost', [walkedAway]: 'expired', [canceled]: 'lost', [pending]: 'pending' });
    expect(lines.get(won)?.outcome?.status).toMatch(/^(current|completed)$/);
    expect(lines.get(walkedAway)?.outcome).toEqual({ status: 'unfunded', resolved_at: listing?.leftListAt });
    // The service never shows who funded a request nor at what rate.
    for (const id of [outbid, canceled, pending]) expect(lines.get(id)?.outcome).toBeUndefined();

    // Training reads them: accepted against expired and lost, pending left out (too few to fit).
    const recording = await loadRecording(file, {}, (issue) => expect.unreachable(issue.message));
    expect(fitMarket(trainingData(recording, ['loan_terms']).lines, () => 0.9).notes).toContain(
      "take-up not fitted from our own offers: 1 offers taken and 3 not taken (each needs 20); trying every offer's fate",
    );

    // A backtest of the export counts the offers it had to judge without an outcome.
    const json = join(h.dir, 'bt.json');
    const backtest = await runCli([
      'backtest',
      '--data',
      file,
      '--strategy',
      OFFER_ALL,
      '--conditions',
      'unlimited',
      '--draws',
      '1',
      '--no-sensitivity',
      '--json',
      json,
    ]);
    expect(backtest.code).toBe(0);
    const result = JSON.parse(await readFile(json, 'utf8')) as {
      runs: Array<{ summary: { offers: number; unjudgedOffers: number; unjudgedShare: number } }>;
    };
    expect(result.runs[0]?.summary).toMatchObject({ offers: 5, unjudgedOffers: 4, unjudgedShare: 0.8 });
    expect(backtest.stdout).toContain('Offers judged without an outcome: 4 of 5 (80.0%)');
    expect(backtest.stdout).toContain('warning: 4 of 5 offers (80.0%) were on requests the recording has no outcome for');
  }, 60_000);
});
