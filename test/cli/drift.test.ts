/**
 * `lendbot drift` on a real sandbox daemon run: a daemon trades against the sandbox's market (its
 * borrowers, competitors and repayments) for two simulated months; then, stopped, the command
 * replays the database's own recording (the lines `lendbot record export` writes) with the same
 * strategy and sets what the replay's market model expected beside what the store says happened:
 * the same requests, the live offers, answers and fills as every other view counts them, the
 * loans' default against what their predictions expect by now, and the findings in words.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFER_ALL, startDaemonHarness, type DaemonHarness } from '../daemon/daemon-harness.js';
import { runCli } from './run-cli.js';

const HOUR = 3_600_000;
const RISK = { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null };

interface Share {
  live: number | null;
  live_low: number | null;
  live_high: number | null;
  live_k: number;
  live_n: number;
  backtest: number | null;
  verdict: string;
}
interface MonthJson {
  month: string;
  requests: { live: number; backtest: number | null };
  offers: Share & { live_offers: number; backtest_offers: number | null };
  acceptance: Share;
  fills: { live: number; backtest: number | null };
  loans: { loans: number; realised_default: number | null; expected_by_now: number | null; reading: string } | null;
  return: { lent_cents: number; net_cents: number; backtest_expected_annual: number | null };
}
interface DriftJson {
  strategies: string[];
  months: MonthJson[];
  all: MonthJson;
  hazard: Array<{ age_month: number; due: number; missed: number }>;
  findings: string[];
}

let h: DaemonHarness;
let dir: string;
let config: string;
let db: string;

beforeAll(async () => {
  h = await startDaemonHarness({ sandbox: { arrivalsPerHour: 0.5, seed: 11 }, balanceCents: 100_000_000, risk: RISK });
  // Two months of trading: a poll every 6 hours (and the answers it finds), the account synced daily.
  // Enough money that neither the daemon nor the replay runs out: the same requests get the same offers.
  for (let hour = 0; hour < 60 * 24; hour += 6) {
    h.sandbox.control.advance(6 * HOUR);
    await h.daemon.runJob('poll');
    await h.daemon.pipeline.idle();
    if (hour % 24 === 0) {
      await h.daemon.runJob('sync');
      await h.daemon.runJob('balance');
    }
  }
  await h.daemon.runJob('sync');
  await h.daemon.runJob('sync');
  await h.daemon.runJob('balance');
  await h.daemon.stop();
  dir = mkdtempSync(join(tmpdir(), 'lendbot-drift-'));
  db = join(h.dir, 'lendbot.db');
  config = join(dir, 'lendbot.yaml');
  writeFileSync(config, stringify({ db, risk: RISK }));
}, 300_000);

afterAll(async () => {
  await h?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('lendbot drift', { timeout: 120_000 }, () => {
  it("replays the run's own recording and sets what the backtest expected beside what the store says happened", async () => {
    const json = join(dir, 'drift.json');
    const result = await runCli(['drift', '--db', db, '--strategy', OFFER_ALL, '--config', config, '--json', json]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as DriftJson;
    expect(report.strategies).toEqual(['offer-all']);

    // The replay saw exactly the requests the export writes, and the store's decisions are those requests.
    const out = join(dir, 'run.jsonl');
    expect((await runCli(['record', 'export', '--db', db, '--out', out])).code).toBe(0);
    const exported = readFileSync(out, 'utf8').trim().split('\n').length;
    expect(report.all.requests.backtest).toBe(exported);
    expect(report.all.requests.live).toBe(exported);
    expect(exported).toBeGreaterThan(300);

    // The live side is what the store's views count: offers by state as every surface shows them.
    const nowMs = h.sandbox.clock.now();
    const counts = h.store.offers.viewCounts({ dryRun: false, sinceMs: 0 }, { nowMs, expiryMs: 72 * HOUR, includeManual: true });
    const taken = counts.placed + counts.accepted + counts.funded + counts.rejected + counts.lost + counts.expired;
    expect(report.all.offers.live_offers).toBe(taken);
    expect(report.all.acceptance.live_n).toBe(taken - counts.placed);
    expect(report.all.acceptance.live_k).toBe(counts.accepted + counts.funded);
    expect(report.all.fills.live).toBe(counts.funded);
    expect(counts.funded).toBeGreaterThan(10);
    // The same strategy on the same requests under the same limits offers where the daemon did (parity).
    expect(report.all.offers.backtest_offers).toBe(taken);

    // The backtest's expectation is a share with an interval verdict; the month rows add up to all.
    expect(report.all.acceptance.backtest).toBeGreaterThan(0);
    expect(['inside', 'outside']).toContain(report.all.acceptance.verdict);
    const outside =
      report.all.acceptance.backtest! < report.all.acceptance.live_low! ||
      report.all.acceptance.backtest! > report.all.acceptance.live_high!;
    expect(report.all.acceptance.verdict).toBe(outside ? 'outside' : 'inside');
    expect(report.months.reduce((sum, m) => sum + m.requests.live, 0)).toBe(report.all.requests.live);
    expect(report.months.reduce((sum, m) => sum + (m.fills.backtest ?? 0), 0)).toBeCloseTo(report.all.fills.backtest ?? 0, 9);
    expect(report.all.loans?.loans).toBe(counts.funded);
    expect(report.all.return.lent_cents).toBeGreaterThan(0);
    expect(report.all.return.backtest_expected_annual).toBeGreaterThan(0);
    expect(report.hazard[0]?.age_month).toBe(1);

    // In words, the same verdict.
    const [acceptance] = report.findings;
    expect(acceptance).toMatch(/^acceptance: the backtest's market model expected \d+\.\d %; live \d+\.\d % of \d+ answered offers \[/);
    expect(acceptance).toContain(outside ? 'outside the interval, the model of take-up has drifted' : 'within the interval');
    expect(result.stdout).toMatch(/^Backtest against live: .*lendbot\.db, replayed with offer-all; /);
    expect(result.stdout).toContain('\nWhat drifted:\n- acceptance: ');
    expect(result.stdout).toMatch(/\nall +\d+ +\d+\/\d+ /);
  });

  it('says what is wrong with its input in one line', async () => {
    const missing = await runCli(['drift', '--db', join(dir, 'none.db'), '--strategy', OFFER_ALL]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain(`no database at ${join(dir, 'none.db')}`);
    const noStrategy = await runCli(['drift', '--db', db]);
    expect(noStrategy.stderr).toContain("required option '--strategy <files>' not specified");
  });
});

describe('lendbot drift on a dry run', { timeout: 180_000 }, () => {
  it("sets the paper book's modelled acceptance and fills beside the replay's, with no live offer to judge them by", async () => {
    const run = await startDaemonHarness({
      dryRun: true,
      sandbox: { arrivalsPerHour: 0.5, seed: 5 },
      balanceCents: 100_000_000,
      risk: RISK,
    });
    try {
      for (let hour = 0; hour < 10 * 24; hour += 6) {
        run.sandbox.control.advance(6 * HOUR);
        await run.daemon.runJob('poll');
        await run.daemon.pipeline.idle();
      }
      await run.daemon.stop();
      const paper = run.store.paper.summary({ expiryMs: 72 * HOUR });
      expect(paper.offers).toBeGreaterThan(50);
      const json = join(dir, 'dry.json');
      const result = await runCli([
        'drift',
        '--db',
        join(run.dir, 'lendbot.db'),
        '--strategy',
        OFFER_ALL,
        '--config',
        config,
        '--json',
        json,
      ]);
      expect(result.code).toBe(0);
      const report = JSON.parse(readFileSync(json, 'utf8')) as DriftJson & {
        all: { fills: { paper: number | null }; offers: { paper_offers: number | null }; acceptance: { paper: number | null } };
      };
      // The paper book's own sums, month by month and together.
      expect(report.all.offers.paper_offers).toBe(paper.offers);
      expect(report.all.fills.paper).toBeCloseTo(paper.expectedAccepted, 9);
      expect(report.all.acceptance.paper).toBeCloseTo(paper.expectedAccepted / (paper.offers - paper.notModelled), 9);
      // Nothing was sent: no live acceptance to judge the expectations by.
      expect(report.all.acceptance).toMatchObject({ live_n: 0, verdict: 'too little evidence' });
      expect(report.all.offers.live_offers).toBe(0);
      expect(report.findings[0]).toMatch(
        /^acceptance: the backtest's market model expected \d+\.\d %, the paper book modelled \d+\.\d %; no live answered offers \(a dry run sends none\): nothing to compare yet$/,
      );
    } finally {
      await run.close();
    }
  });
});
