import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingLine, syntheticRecording, writeRecording } from '../backtest/recording-fixtures.js';
import { FLAT_STRATEGY_YAML } from '../backtest/strategy-fixtures.js';
import { FLAT_20_YAML, HAND_LINES, HAND_VERDICTS } from '../backtest/hand-recording.js';
import { runCli } from './run-cli.js';

describe('lendbot backtest', () => {
  let dir: string;
  let data: string;
  let strategy: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-backtest-cli-'));
    data = join(dir, 'rec.jsonl');
    strategy = join(dir, 'flat.yaml');
    await writeFile(strategy, FLAT_STRATEGY_YAML);
    await writeFile(join(dir, 'strict.yaml'), FLAT_STRATEGY_YAML.replace('name: flat', 'name: strict').replace('value: 560', 'value: 700'));
    await writeRecording(data, [
      ...syntheticRecording(60, 3, () => 1).slice(0, 30),
      'this is not json',
      ...syntheticRecording(60, 3, () => 1).slice(30),
    ]);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the tables, warns about the bad line by number, and writes JSON and HTML', async () => {
    const json = join(dir, 'out.json');
    const html = join(dir, 'out.html');
    const result = await runCli([
      'backtest',
      '--data',
      data,
      '--strategy',
      strategy,
      '--balance',
      '50000',
      '--json',
      json,
      '--html',
      html,
      '--decisions',
    ]);
    expect(result.stderr).toContain(`warning: ${data}:31: not JSON`);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/By risk level\n/);
    expect(result.stdout).toMatch(/By score band/);
    expect(result.stdout).toMatch(/ {2}requests +60\n/);
    const written = JSON.parse(await readFile(json, 'utf8')) as {
      runs: Array<{ decisions: unknown[]; strategies: Array<{ contentHash: string }> }>;
    };
    expect(written.runs[0]?.decisions).toHaveLength(60);
    expect(written.runs[0]?.decisions[0]).toMatchObject({
      loan_request_id: 10_000,
      action: expect.stringMatching(/offer|skip/) as unknown,
    });
    const page = await readFile(html, 'utf8');
    expect(page).toContain('<canvas id="chart-equity"');
    expect(page).toMatch(
      /Net annualized return on capital \(idle cash included\): <strong>-?[\d.]+%<\/strong>, \d+ loans funded \(seed 1\); mean over 5 draws/,
    );
    expect(page).toMatch(
      /<div class="warning" role="alert"><strong>Warning<\/strong><p>flat: fewer than 100 funded loans \(\d+\): the figures are noise-level\.<\/p>/,
    );
  });

  it('compares several strategies side by side', async () => {
    const result = await runCli(['backtest', '--data', data, '--strategy', `${strategy},${join(dir, 'strict.yaml')}`]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Side by side\n +flat +strict\n/);
  });

  it('applies the risk limits of a config file', async () => {
    const config = join(dir, 'lendbot.yaml');
    await writeFile(
      config,
      'risk:\n  max_offers_per_day: 2\n  max_open_exposure: null\n  max_per_borrower: null\n  max_amount_per_day: null\n',
    );
    const lines = [1, 2, 3].map((id) =>
      recordingLine({
        id,
        seenAt: `2026-01-01T0${id}:00:00Z`,
        outcome: { status: 'completed', best_competing_rate: null, repaid_fraction: 1 },
      }),
    );
    const small = join(dir, 'small.jsonl');
    await writeRecording(small, lines);
    const result = await runCli(['backtest', '--data', small, '--strategy', strategy, '--config', config]);
    expect(result.stdout).toMatch(/guard refusals +max_offers_per_day 1/);
  });

  it('fits the balance to the recording when none is given, warns about a small sample, and reports the draws and the sensitivity', async () => {
    const json = join(dir, 'draws.json');
    const result = await runCli([
      'backtest',
      '--data',
      data,
      '--strategy',
      strategy,
      '--conditions',
      'unlimited',
      '--draws',
      '3',
      '--seed',
      '4',
      '--json',
      json,
    ]);
    expect(result.code).toBe(0);
    // Every request is 500.00: 100 x 500.00 = 50,000.00.
    expect(result.stdout).toContain(
      'Conditions: no caps on exposure, per borrower or per day (--conditions unlimited); balance $50,000.00: 100 × the average request total_amount, $500.00, rounded up to 1,000 USD\nStarting balance 50000.00 USD;',
    );
    expect(result.stdout).toMatch(
      /Net annualized return on capital \(idle cash included\): -?[\d.]+%, \d+ loans funded \(seed 4\); mean over 3 draws -?[\d.]+% \(range -?[\d.]+% to -?[\d.]+%, smallest to largest draw\)/,
    );
    expect(result.stdout).toMatch(/warning: fewer than 100 funded loans \(\d+\): the figures are noise-level/);
    expect(result.stdout).toMatch(/Sensitivity: net annualized return \(mean over the same 3 draws\)/);
    expect(result.stdout).toMatch(/steepness ×2 \(more rate-sensitive\) +0\.70 +12 /);
    expect(result.stdout).toMatch(/midpoint −0\.15 \(walk away sooner\) +0\.55 +6 /);
    const written = JSON.parse(await readFile(json, 'utf8')) as {
      runs: Array<{ summary: { netAnnualizedReturn: number; recoveryCents: number }; settings: { market: { seed: number } } }>;
      draws: Array<{ seeds: number[]; netAnnualizedReturn: { mean: number; min: number; max: number } }>;
      sensitivity: Array<Array<{ label: string }>>;
      balance: { cents: number; default: boolean };
    };
    expect(written.runs[0]?.settings.market.seed).toBe(4);
    expect(written.draws[0]?.seeds).toEqual([4, 5, 6]);
    expect(written.draws[0]?.netAnnualizedReturn.min).toBeLessThanOrEqual(written.runs[0]?.summary.netAnnualizedReturn ?? NaN);
    expect(written.sensitivity[0]).toHaveLength(4);
    expect(written.balance).toMatchObject({ cents: 5_000_000, default: true });
  });

  it('takes the market only from the --market file: the flags that repeated it fail naming its key', async () => {
    for (const [flag, value, key] of [
      ['--takeup-midpoint', '0.1', 'take_up: { midpoint, steepness }'],
      ['--takeup-steepness', '12', 'take_up: { midpoint, steepness }'],
      ['--competition', 'soft', 'backtest: { comparison }'],
      ['--unknown-competition', 'lose', 'backtest: { unknown_competition }'],
      ['--decision-delay-hours', '48', 'backtest: { decision_delay_hours }'],
    ] as const) {
      for (const command of ['backtest', 'tune']) {
        const refused = await runCli([command, '--data', data, '--strategy', strategy, flag, value]);
        expect(refused.code, flag).toBe(2);
        expect(refused.stderr.trim()).toBe(
          `lendbot: ${flag} is no longer an option: set ${key} in the --market file (docs/backtesting.md, "The market model")`,
        );
      }
    }
    const help = await runCli(['backtest', '--help']);
    expect(help.stdout).not.toMatch(/--takeup-|--competition|--unknown-competition|--decision-delay-hours/);
    const json = join(dir, 'settings.json');
    const file = join(dir, 'settings.market.yaml');
    await writeFile(
      file,
      'format: lendbot-market\nversion: 1\ntake_up: { midpoint: 0.1, steepness: 12 }\nbacktest: { unknown_competition: lose, decision_delay_hours: 48, comparison: soft }\n',
    );
    const fromFile = await runCli([
      'backtest',
      '--data',
      data,
      '--strategy',
      strategy,
      '--draws',
      '1',
      '--no-sensitivity',
      '--json',
      json,
      '--market',
      file,
    ]);
    expect(fromFile.code).toBe(0);
    const parsed = JSON.parse(await readFile(json, 'utf8')) as { runs: Array<{ settings: { market: Record<string, unknown> } }> };
    expect(parsed.runs[0]?.settings.market).toMatchObject({
      unknownCompetition: 'lose',
      decisionDelayMs: 48 * 3_600_000,
      comparison: 'soft',
      response: { takeUp: { midpoint: 0.1, steepness: 12 } },
    });
    await writeFile(file, 'format: lendbot-market\nversion: 1\nbacktest: { unknown_competition: maybe }\n');
    const bad = await runCli(['backtest', '--data', data, '--strategy', strategy, '--market', file]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('backtest.unknown_competition');
  });

  it('takes the market response from a --market file, and refuses a bad file', async () => {
    const run = async (...extra: string[]) => {
      const json = join(dir, 'm.json');
      const result = await runCli([
        'backtest',
        '--data',
        data,
        '--strategy',
        strategy,
        '--balance',
        '50000',
        '--draws',
        '1',
        '--no-sensitivity',
        '--json',
        json,
        ...extra,
      ]);
      expect(result.stderr).not.toMatch(/error/);
      const parsed = JSON.parse(await readFile(json, 'utf8')) as {
        runs: Array<{ summary: { funded: number }; settings: { market: { response: { takeUp: unknown }; prepayment: unknown } } }>;
      };
      return { stdout: result.stdout, run: parsed.runs[0] };
    };
    const file = join(dir, 'market.yaml');
    await writeFile(file, 'takeUp: { midpoint: 0.1, steepness: 12 }\nprepayment: { share: 0.5 }\n');
    const fromFile = await run('--market', file);
    expect(fromFile.run?.settings.market).toMatchObject({
      response: { takeUp: { midpoint: 0.1, steepness: 12 } },
      prepayment: { share: 0.5, atTermFraction: 0.5 },
    });
    expect(fromFile.stdout).not.toContain('Sensitivity');
    // At 0.12 of a 0.3 maximum (position 0.33) borrowers who walk away past 0.1 mostly refuse.
    const usual = await run();
    expect(fromFile.run?.summary.funded).toBeLessThan((usual.run?.summary.funded ?? 0) / 2);
    await writeFile(file, 'takeUp: { midpiont: 0.1 }\n');
    const bad = await runCli(['backtest', '--data', data, '--strategy', strategy, '--market', file]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('takeUp');
  });

  it('replays a lendbot-market file as trained, per-default take-up included, and notes the old format', async () => {
    let output = '';
    const run = async (market: object) => {
      const json = join(dir, 'lm.json');
      const file = join(dir, 'trained.market.json');
      await writeFile(file, JSON.stringify({ format: 'lendbot-market', version: 1, ...market }));
      const result = await runCli([
        'backtest',
        '--data',
        data,
        '--strategy',
        strategy,
        '--balance',
        '50000',
        '--draws',
        '1',
        '--no-sensitivity',
        '--json',
        json,
        '--market',
        file,
      ]);
      expect(result.code).toBe(0);
      expect(result.stderr).not.toContain('old market settings format');
      output = result.stdout;
      const parsed = JSON.parse(await readFile(json, 'utf8')) as {
        runs: Array<{
          summary: { funded: number };
          settings: { market: { response: { takeUp: unknown }; prepayment: unknown; seed: number } };
        }>;
      };
      return parsed.runs[0];
    };
    const blind = await run({ take_up: { midpoint: 0.9, steepness: 12 }, backtest: { prepayment: { share: 0.5 }, seed: 3 } });
    expect(blind?.settings.market).toMatchObject({
      response: { takeUp: { midpoint: 0.9, steepness: 12 } },
      prepayment: { share: 0.5, atTermFraction: 0.5 },
      seed: 3,
    });
    // The strategy's borrowers (default probability 0.047) walk away from 0.12 of 0.3 when the midpoint falls by 15 per unit of it.
    const dependent = await run({
      take_up: { midpoint: 0.9, steepness: 12, midpoint_per_default: -15 },
      backtest: { prepayment: { share: 0.5 }, seed: 3 },
    });
    expect(dependent?.settings.market.response.takeUp).toEqual({ midpoint: 0.9, steepness: 12, midpointPerDefault: -15 });
    expect(dependent?.summary.funded).toBeLessThan((blind?.summary.funded ?? 0) / 2);
    expect(output).toContain("Market: take-up midpoint 0.9, steepness 12 (midpoint -15 per unit of the strategy's default probability)");
    const file = join(dir, 'bad.market.json');
    await writeFile(file, JSON.stringify({ format: 'lendbot-market', version: 1, backtest: { seeed: 1 } }));
    const bad = await runCli(['backtest', '--data', data, '--strategy', strategy, '--market', file]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('backtest.');
    const old = join(dir, 'old.yaml');
    await writeFile(old, 'takeUp: { midpoint: 0.9, steepness: 12 }\n');
    const legacy = await runCli(['backtest', '--data', data, '--strategy', strategy, '--draws', '1', '--no-sensitivity', '--market', old]);
    expect(legacy.code).toBe(0);
    expect(legacy.stderr).toContain(`warning: ${old} is in the old market settings format`);
  });

  it('a dry run draws nothing: one run, no sensitivity, nothing funded', async () => {
    const result = await runCli(['backtest', '--data', data, '--strategy', strategy, '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('offers never settle (dry run)');
    expect(result.stdout).not.toContain('Sensitivity');
    expect(result.stdout).toMatch(/ {2}loans funded +0\n/);
  });

  it('fails with one line when the recording is missing or both sources are given', async () => {
    const missing = await runCli(['backtest', '--data', join(dir, 'nope.jsonl'), '--strategy', strategy]);
    expect(missing).toMatchObject({ code: 1, stderr: `lendbot: recording not found: ${join(dir, 'nope.jsonl')}\n` });
    const both = await runCli(['backtest', '--data', data, '--db', join(dir, 'x.db'), '--strategy', strategy]);
    expect(both.stderr).toBe('lendbot: give the recording as --data FILE or the database as --db PATH (one of them)\n');
  });

  it('judges lines with a reservation rate by the recorded rule: the exact ledger, and the competition section in terminal, JSON and HTML', async () => {
    const hand = join(dir, 'hand.jsonl');
    const flat20 = join(dir, 'flat20.yaml');
    const market = join(dir, 'no-prepay.yaml');
    const json = join(dir, 'hand.json');
    const html = join(dir, 'hand.html');
    await writeRecording(hand, HAND_LINES);
    await writeFile(flat20, FLAT_20_YAML);
    await writeFile(market, 'prepayment: { share: 0 }\n');
    const result = await runCli([
      'backtest',
      '--data',
      hand,
      '--strategy',
      flat20,
      '--conditions',
      'unlimited',
      '--balance',
      '50000',
      '--market',
      market,
      '--draws',
      '2',
      '--json',
      json,
      '--html',
      html,
      '--decisions',
    ]);
    expect(result.code).toBe(0);
    // The headline is the recorded truth; the band adds the worlds, which replace every recorded answer.
    expect(result.stdout).toMatch(/\nNet annualized return across borrower worlds: -?[\d.]+% to -?[\d.]+% \(low end: /);
    expect(result.stdout).toContain(
      "The headline (-0.4%) is the recording's truth: every request records the highest rate its borrower would accept",
    );
    expect(result.stdout).toContain(
      'Sensitivity: none to show: every offer the recording could judge was judged by the highest rate its borrower recorded (reservation_rate)',
    );
    expect(result.stdout).toMatch(
      /Competition and adverse selection \(seed 1\)\n +strategy +offers +won +funded +outbid +declined +unjudged +expired +win rate contested +win rate uncontested +recorded acceptance\n +flat +8 +4 +4 +2 +2 +0 +0 +40\.0% \(2 of 5\) +66\.7% \(2 of 3\) +8\n/,
    );
    expect(result.stdout).toMatch(
      /flat +25\.0% \[4\.6% to 69\.9%\] \(n 4\) +25\.0% \[7\.1% to 59\.1%\] \(n 8\) +25\.0% \[7\.1% to 59\.1%\] \(n 8\) +1\.00 \[/,
    );
    const written = JSON.parse(await readFile(json, 'utf8')) as {
      runs: Array<{
        decisions: Array<{ market: string }>;
        summary: { netCents: number; funded: number };
        offerStats: Array<{ outbid: number; adverseSelection: { ratio: number } }>;
      }>;
      worlds: Array<{ recordedShare: number; headline: { basis: string }; worlds: unknown[]; low: unknown }>;
      draws: Array<{ draws: Array<{ netCents: number }> }>;
    };
    const run = written.runs[0];
    expect(run?.decisions.map((d) => d.market)).toEqual(HAND_VERDICTS);
    // test/backtest/recorded-acceptance.test.ts works these out: 3 x 111.56 - 555.38.
    expect(run?.summary).toMatchObject({ funded: 4, netCents: 3 * 11_156 - 55_538 });
    // No draw decides anything: every seed gives the same ledger.
    expect(written.draws[0]?.draws.map((d) => d.netCents)).toEqual([-22_070, -22_070]);
    expect(run?.offerStats[0]).toMatchObject({ outbid: 2, adverseSelection: { ratio: 1 } });
    expect(written.worlds[0]).toMatchObject({ recordedShare: 1, headline: { basis: 'recorded' } });
    expect(written.worlds[0]?.worlds).toHaveLength(4);
    const page = await readFile(html, 'utf8');
    expect(page).toContain('<h2>Competition and adverse selection</h2>');
    expect(page).toMatch(/<table class="competition">.*<th>flat<\/th><td>8<\/td><td>4<\/td><td>4<\/td><td>2<\/td><td>2<\/td>/);
    expect(page).toMatch(/<table class="adverse-selection">.*<td>25\.0% \[4\.6% to 69\.9%\] \(n 4\)<\/td>/);
    expect(page).toContain('<p class="band-headline">The headline (-0.4%) is the recording&#39;s truth');
    const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(page)?.[1] ?? '{}') as {
      runs: Array<{ offerStats: unknown[]; worlds: unknown }>;
    };
    expect(data.runs[0]?.offerStats).toEqual(run?.offerStats);
  });

  it('reports the headline as a band across borrower worlds, naming the low end, in terminal, JSON and HTML', async () => {
    const json = join(dir, 'band.json');
    const html = join(dir, 'band.html');
    const result = await runCli([
      'backtest',
      '--data',
      data,
      '--strategy',
      strategy,
      '--balance',
      '50000',
      '--draws',
      '2',
      '--no-sensitivity',
      '--json',
      json,
      '--html',
      html,
    ]);
    expect(result.code).toBe(0);
    const band =
      /Net annualized return across borrower worlds: (-?[\d.]+)% to (-?[\d.]+)% \(low end: ([\w ]+), [^;]+; high end: ([\w ]+)\)/.exec(
        result.stdout,
      );
    expect(band).not.toBeNull();
    expect(result.stdout).toMatch(/Borrower worlds: the headline, then the same 2 draws/);
    expect(result.stdout).toMatch(/\n {2}headline: the assumed take-up curve, given what each recorded borrower did +/);
    for (const world of ['insensitive', 'linear', 'quality', 'assumed']) expect(result.stdout).toMatch(new RegExp(`\\n  ${world}: `));
    const written = JSON.parse(await readFile(json, 'utf8')) as {
      worlds: Array<{
        worlds: Array<{ world: string; draws: { netAnnualizedReturn: { mean: number } } }>;
        headline: { netAnnualizedReturn: number };
        low: { world: string; netAnnualizedReturn: number };
      }>;
    };
    const worlds = written.worlds[0];
    expect(worlds?.worlds.map((w) => w.world)).toEqual(['insensitive', 'linear', 'quality', 'assumed']);
    expect(worlds?.low.world).toBe(band?.[3] === 'the headline' ? 'headline' : band?.[3]);
    const means = [worlds?.headline.netAnnualizedReturn ?? NaN, ...(worlds?.worlds ?? []).map((w) => w.draws.netAnnualizedReturn.mean)];
    expect(worlds?.low.netAnnualizedReturn).toBe(Math.min(...means));
    const page = await readFile(html, 'utf8');
    expect(page).toContain('<h2>Across borrower worlds</h2>');
    expect(page).toMatch(/<p class="band">Net annualized return across borrower worlds: -?[\d.]+% to -?[\d.]+% \(low end: \w+/);
    expect(page).toMatch(/<table class="worlds">/);
    const none = await runCli([
      'backtest',
      '--data',
      data,
      '--strategy',
      strategy,
      '--balance',
      '50000',
      '--draws',
      '1',
      '--no-sensitivity',
      '--no-worlds',
    ]);
    expect(none.stdout).not.toContain('across borrower worlds');
  });

  it("runs on the daemon's conditions by default: the config's caps and the account's balance, and says so", async () => {
    const db = join(dir, 'account.db');
    const { openStore } = await import('../../src/store/index.js');
    const store = openStore(db);
    const transfer = (status: string, type: string, amount: string) => ({
      transfer_status: status,
      transfer_type: type,
      transfer_amount: amount,
    });
    store.account.replaceTransfers(
      [
        { date: '2026-11-18', transactions: [transfer('processed', 'Deposit', '6000.00')] },
        {
          date: '2026-11-20',
          transactions: [transfer('processed', 'Loan Funding', '-500.00'), transfer('pending', 'Loan Funding', '-500.00')],
        },
      ],
      Date.parse('2026-11-20T12:00:00Z'),
    );
    store.close();
    const config = join(dir, 'daemon.yaml');
    await writeFile(config, `db: ${db}\nrisk:\n  max_open_exposure: null\n  max_per_borrower: null\n  max_amount_per_day: 1000\n`);
    const json = join(dir, 'daemon.json');
    const html = join(dir, 'daemon.html');
    const result = await runCli([
      'backtest',
      '--data',
      data,
      '--strategy',
      strategy,
      '--config',
      config,
      '--draws',
      '1',
      '--no-sensitivity',
      '--no-worlds',
      '--json',
      json,
      '--html',
      html,
    ]);
    expect(result.code).toBe(0);
    // Processed 6,000 - 500, less the pending 500 already committed: 5,000.00 usable.
    const conditions = `Conditions: risk limits from ${config}; balance $5,000.00 from the account on 2026-11-20 (${db})`;
    expect(result.stdout).toContain(`${conditions}\nStarting balance 5000.00 USD;`);
    // Two 500.00 offers a day at most: the config's cap, which the unlimited run never meets.
    expect(result.stdout).toMatch(/guard refusals +max_amount_per_day \d+/);
    const written = JSON.parse(await readFile(json, 'utf8')) as {
      conditions: { name: string; limitsFrom: string };
      balance: { cents: number; from: string; default: boolean };
    };
    expect(written.conditions).toMatchObject({ name: 'daemon', limitsFrom: config });
    expect(written.balance).toMatchObject({ cents: 500_000, from: 'account', default: true });
    expect(await readFile(html, 'utf8')).toContain(`<p class="conditions">${conditions}.</p>`);
    const unlimited = await runCli([
      'backtest',
      '--data',
      data,
      '--strategy',
      strategy,
      '--conditions',
      'unlimited',
      '--draws',
      '1',
      '--no-sensitivity',
      '--no-worlds',
    ]);
    expect(unlimited.stdout).toContain(
      'Conditions: no caps on exposure, per borrower or per day (--conditions unlimited); balance $50,000.00: 100 × the average request',
    );
    expect(unlimited.stdout).toMatch(/guard refusals +none/);
  });

  it('falls back to the fitted balance, saying why, when the config names no database that exists', async () => {
    const config = join(dir, 'nodb.yaml');
    const db = join(dir, 'absent.db');
    await writeFile(config, `db: ${db}\n`);
    const result = await runCli([
      'backtest',
      '--data',
      data,
      '--strategy',
      strategy,
      '--config',
      config,
      '--draws',
      '1',
      '--no-sensitivity',
      '--no-worlds',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `Conditions: risk limits from ${config}; balance $50,000.00: 100 × the average request total_amount, $500.00, rounded up to 1,000 USD (no account known: no database at ${db})`,
    );
    const bad = await runCli(['backtest', '--data', data, '--strategy', strategy, '--conditions', 'generous']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('expected daemon');
  });

  it("never wins above a competing rate the borrower took, unless the market file's backtest.comparison asks for soft", async () => {
    // Every borrower took a competitor at 0.119 or 0.12: the flat 0.12 offer never wins hard.
    const lines = syntheticRecording(80, 5, () => 1).map((line, i) => ({
      ...line,
      outcome: {
        status: 'completed' as const,
        funded_rate: 0.119 + (i % 2) * 0.001,
        best_competing_rate: 0.119 + (i % 2) * 0.001,
        repaid_fraction: 1,
      },
    }));
    const taken = join(dir, 'taken.jsonl');
    await writeRecording(taken, lines);
    const funded = async (...extra: string[]) => {
      const json = join(dir, 'taken.json');
      const result = await runCli([
        'backtest',
        '--data',
        taken,
        '--strategy',
        strategy,
        '--balance',
        '50000',
        '--draws',
        '1',
        '--no-sensitivity',
        '--no-worlds',
        '--json',
        json,
        ...extra,
      ]);
      expect(result.code).toBe(0);
      const parsed = JSON.parse(await readFile(json, 'utf8')) as {
        runs: Array<{ summary: { funded: number }; offerStats: Array<{ outbid: number; offers: number }> }>;
      };
      return { stdout: result.stdout, run: parsed.runs[0] };
    };
    const hard = await funded();
    expect(hard.stdout).toContain('competition hard');
    expect(hard.run?.summary.funded).toBe(0);
    expect(hard.run?.offerStats[0]?.outbid).toBe(hard.run?.offerStats[0]?.offers);
    const file = join(dir, 'soft.yaml');
    await writeFile(file, 'format: lendbot-market\nversion: 1\nbacktest: { comparison: soft }\n');
    const soft = await funded('--market', file);
    expect(soft.stdout).toContain('competition soft (width 0.01)');
    expect(soft.run?.summary.funded).toBeGreaterThan(10);
    await writeFile(file, 'competition: { comparison: soft, width: 0.02 }\n');
    expect((await funded('--market', file)).run?.summary.funded).toBeGreaterThan(10);
    await writeFile(file, 'format: lendbot-market\nversion: 1\nbacktest: { comparison: fuzzy }\n');
    const bad = await runCli(['backtest', '--data', taken, '--strategy', strategy, '--market', file]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('backtest.comparison');
  });
});
