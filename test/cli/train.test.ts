import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSandboxRecording } from '../../src/sandbox/index.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { recordingLine, writeRecording } from '../backtest/recording-fixtures.js';
import { runCli } from './run-cli.js';

describe('lendbot train model | calibration | market', () => {
  let dir: string;
  let data: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-train-cli-'));
    data = join(dir, 'market.jsonl');
    await exportSandboxRecording(data, { seed: 7, requests: 1500 });
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints counts, held-out metrics, calibration, weights and market response, and writes the model', async () => {
    const out = join(dir, 'models', 'market.json');
    const result = await runCli(['train', 'model', '--data', data, '--out', out]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Data .*market\.jsonl: 1500 requests, \d+ labelled \(\d+ repaid, \d+ defaulted\)/);
    expect(result.stdout).toMatch(/L2 penalty \d+(\.\d+)?, chosen on the last quarter of the fitting part/);
    expect(result.stdout).toMatch(/\n {2}held out +\d+ +\d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d +\d+\.\d % +0\.\d{3} +0\.\d{4}\n/);
    expect(result.stdout).toMatch(
      /Calibration \(held out, by decile of predicted default, safest first\)\n {2}decile +n +predicted range +predicted +realised +95 % interval\n {2}1 /,
    );
    expect(result.stdout).toMatch(
      /\n {2}(off: )?overall: predicts \d+\.\d % where \d+\.\d % happened \(95 % interval [\d.]+-[\d.]+ %, n=\d+\)/,
    );
    expect(result.stdout).toMatch(
      /\n {2}Brier score 0\.\d{4} against 0\.\d{4} for a constant guess at the base rate \d+\.\d % \(n=\d+\): \d+\.\d % better\n/,
    );
    expect(result.stdout).toMatch(/Weights of the written model .*refit on all \d+ labelled lines/);
    expect(result.stdout).toMatch(/competing offer on \d+\.\d % of 1500 requests/);
    expect(result.stdout).toMatch(
      /Wrote .*market\.json \(\d+ features, sha256 [0-9a-f]{16}\)\nWrote .*models\/market\.market\.json \(the market response and its evidence; a strategy uses it as pricing\.market\.file\)\n$/,
    );
    expect(result.stdout).toMatch(
      /take-up evidence: \d+ fates \(0 of our own offers, \d+ of competitors' offers, 0 past loan rates of \d+ in the recording\); (fitted|thin evidence)/,
    );
    const market = JSON.parse(await readFile(join(dir, 'models', 'market.market.json'), 'utf8')) as {
      format: string;
      evidence: { competition_share: { lines: number; verdict: string } };
    };
    expect(market.format).toBe('lendbot-market');
    expect(market.evidence.competition_share).toMatchObject({ lines: 1500, verdict: 'fitted' });
    const model = JSON.parse(await readFile(out, 'utf8')) as { format: string; training: { refit: string; test: { auc: number } } };
    expect(model.format).toBe('lendbot-model');
    expect(model.training.refit).toBe('all');
    expect(model.training.test.auc).toBeGreaterThan(0.6);
  });

  it('train market writes the market file alone, where --out says', async () => {
    const market = join(dir, 'markets', 'classic.json');
    const result = await runCli(['train', 'market', '--data', data, '--out', market, '--history-rates']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Market response from .*market\.jsonl \(1500 requests\)\n {2}competing offer on /);
    expect(result.stdout).toMatch(
      /take-up evidence: \d+ fates \(0 of our own offers, \d+ of competitors' offers, [1-9]\d* past loan rates of [1-9]\d* in the recording\)/,
    );
    expect(result.stdout).toMatch(
      /\nWrote .*markets\/classic\.json \(a strategy uses it as pricing\.market\.file, a backtest as --market\)\n$/,
    );
    expect(result.stdout).not.toContain('Weights');
    const written = JSON.parse(await readFile(market, 'utf8')) as { format: string; evidence: { take_up: { history_rates: number } } };
    expect(written.format).toBe('lendbot-market');
    expect(written.evidence.take_up.history_rates).toBeGreaterThan(0);
    // Nothing but the market file: no model beside it.
    await expect(readFile(join(dir, 'markets', 'classic.market.json'))).rejects.toThrow(/ENOENT/);
    const json = await runCli(['train', 'market', '--data', data, '--out', market, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ written: market, market: { format: 'lendbot-market', version: 1 } });
  });

  it('refuses the old flag form with one line naming the subcommand that does that job', async () => {
    const out = join(dir, 'old', 'm.json');
    expect(await runCli(['train', '--data', data, '--out', out])).toMatchObject({
      code: 2,
      stderr:
        'lendbot: lendbot train now names its job: lendbot train model (the same options, for a default model), lendbot train calibration or lendbot train market\n',
    });
    expect(await runCli(['train', '--calibrate', 'isotonic', '--strategy', 's.yaml', '--data', data, '--out', out])).toMatchObject({
      code: 2,
      stderr:
        'lendbot: lendbot train --calibrate is now lendbot train calibration --method isotonic (with the same --strategy, --data and --out)\n',
    });
    expect(await runCli(['train', '--data', data, '--out', out, '--market-out', join(dir, 'old', 'x.json')])).toMatchObject({
      code: 2,
      stderr:
        'lendbot: lendbot train --market-out is now lendbot train market --data FILE --out FILE (lendbot train model writes the market file beside the model)\n',
    });
    expect(await runCli(['train', 'model', '--data', data, '--out', out, '--market-out', join(dir, 'old', 'x.json')])).toMatchObject({
      code: 2,
      stderr:
        'lendbot: --market-out is no longer an option: the market file goes beside the model; lendbot train market --out FILE writes one elsewhere\n',
    });
    // The subcommands keep commander's checks: an unknown option or a stray word is refused.
    expect(await runCli(['train', 'model', '--data', data, '--out', out, '--calibrate', 'platt'])).toMatchObject({ code: 1 });
    expect(await runCli(['train', 'market', 'extra', '--data', data, '--out', out])).toMatchObject({ code: 1 });
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
    for (const job of ['model', 'calibration', 'market']) {
      const help = await runCli(['train', job, '--help']);
      expect(help.stdout).toContain(`Usage: lendbot train ${job} [options]`);
      expect(help.stdout).toContain(`\nExamples:\n  lendbot train ${job} `);
    }
  });

  it('prints JSON with --json, with a fixed penalty and chosen features', async () => {
    const out = join(dir, 'small.json');
    const result = await runCli([
      'train',
      'model',
      '--data',
      data,
      '--out',
      out,
      '--json',
      '--l2',
      '3',
      '--features',
      'credit_score_low,risk_level_name,annual_income',
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      l2: { value: number; chosen: string };
      test: { auc: number };
      weights: Array<{ term: string }>;
      model: { features: Array<{ name: string }> };
    };
    expect(report.l2).toEqual({ value: 3, chosen: 'given', candidates: [] });
    expect(report.model.features.map((feature) => feature.name)).toEqual(['credit_score_low', 'risk_level_name', 'annual_income']);
    expect(report.weights.map((weight) => weight.term)).toContain('risk_level_name=low');
  });

  it('says what is wrong with the input', async () => {
    const out = join(dir, 'never.json');
    const missing = await runCli(['train', 'model', '--data', join(dir, 'nowhere.jsonl'), '--out', out]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`lendbot: cannot read ${join(dir, 'nowhere.jsonl')}: file not found\n`);

    const few = join(dir, 'few.jsonl');
    await writeRecording(
      few,
      [1, 2, 3].map((id) =>
        recordingLine({
          id,
          seenAt: `2026-01-01T0${id}:00:00Z`,
          outcome: { status: 'completed', best_competing_rate: null, repaid_fraction: 1 },
        }),
      ),
    );
    const tooFew = await runCli(['train', 'model', '--data', few, '--out', out]);
    expect(tooFew.code).toBe(1);
    expect(tooFew.stderr).toContain(`lendbot: ${few}: 3 labelled lines of 3 (need at least 50)`);

    const unknown = await runCli(['train', 'model', '--data', data, '--out', out, '--features', 'credit_score_low,no_such']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('lendbot: unknown feature "no_such" (lendbot strategy features lists them)\n');
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
  });

  it('trains a model `strategy check` accepts, and check refuses a model naming an unknown feature', async () => {
    const out = join(dir, 'models', 'checked.json');
    expect((await runCli(['train', 'model', '--data', data, '--out', out, '--l2', '10'])).code).toBe(0);
    const strategy = join(dir, 'trained.yaml');
    const yaml = (model: string): string =>
      `name: trained\ndescription: a trained model\nversion: "1"\nscore:\n  model: ${model}\n  logistic: { intercept: 0, terms: [{ feature: loan_terms, weight: 0 }] }\n  min_probability: 0.8\npricing:\n  target_return: 0.05\n`;
    await writeFile(strategy, yaml('models/checked.json'));
    const ok = await runCli(['strategy', 'check', strategy]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(
      /^ok .*trained\.yaml: trained 1 \(yaml, 0 params, hash [0-9a-f]{16}\)\n {3}model .*checked\.json: \d+ features, sha256 [0-9a-f]{16}, held-out AUC 0\.\d{3} on \d+ lines\n$/,
    );

    const model = JSON.parse(await readFile(out, 'utf8')) as { features: Array<{ name: string }> };
    model.features[0] = { ...model.features[0], name: 'credit_score_lowest' };
    await writeFile(join(dir, 'models', 'renamed.json'), JSON.stringify(model, null, 2));
    const bad = join(dir, 'bad.yaml');
    await writeFile(bad, yaml('models/renamed.json'));
    const refused = await runCli(['strategy', 'check', bad]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${bad}:5:3 score.model: cannot use model file ${join(dir, 'models', 'renamed.json')}`);
    expect(refused.stderr).toMatch(/renamed\.json:\d+:\d+ features\[0\]\.name: unknown feature "credit_score_lowest"/);
  });
  /** The recording without recorded acceptance (reservation_rate), so the borrower worlds judge. */
  async function unrecordedCopy(): Promise<string> {
    const unrecorded = join(dir, 'unrecorded.jsonl');
    const lines = (await readFile(data, 'utf8'))
      .trim()
      .split('\n')
      .map((text) => {
        const line = JSON.parse(text) as { outcome?: { reservation_rate?: number } };
        if (line.outcome) delete line.outcome.reservation_rate;
        return JSON.stringify(line);
      });
    await writeFile(unrecorded, `${lines.join('\n')}\n`);
    return unrecorded;
  }

  it('with --strategy, writes the model only when the strategy with it loses no money held out in any borrower world', async () => {
    const unrecorded = await unrecordedCopy();
    const models = join(dir, 'checked');
    expect((await runCli(['train', 'model', '--data', unrecorded, '--out', join(models, 'm0.json'), '--train-share', '0.5'])).code).toBe(0);
    const strategy = join(models, 'modelled.yaml');
    await writeFile(
      strategy,
      'name: modelled\ndescription: scores with a trained model\nversion: "1"\ndata: { banking_data: never }\nscore: { model: m0.json, min_probability: 0.7 }\npricing:\n  mode: expected_profit\n  target_return: 0.05\n',
    );
    const out = join(models, 'm1.json');
    const refused = await runCli(['train', 'model', '--data', unrecorded, '--out', out, '--strategy', strategy]);
    expect(refused.code).toBe(3);
    expect(refused.stdout).toContain(
      '\nHeld out, in money: the strategy with the model fitted on the first part against the strategy as it is (balance ',
    );
    expect(refused.stdout).toMatch(/\n {2}world +gain +95% interval +requests +funded\n {2}insensitive +-\d+\.\d\d% /);
    expect(refused.stdout).not.toContain('Wrote');
    expect(refused.stderr).toMatch(
      /^lendbot: not written: .*modelled\.yaml with the new model loses held out in insensitive -\d+\.\d\d points.*m1\.json is unchanged \(--ignore-worlds writes it anyway\)\n$/,
    );
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
    await expect(readFile(join(models, 'm1.market.json'))).rejects.toThrow(/ENOENT/);
    const forced = await runCli(['train', 'model', '--data', unrecorded, '--out', out, '--strategy', strategy, '--ignore-worlds']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/; written anyway \(--ignore-worlds\)\.\nWrote .*m1\.market\.json/);
    expect(JSON.parse(await readFile(out, 'utf8'))).toMatchObject({ format: 'lendbot-model' });
    expect(await runCli(['train', 'model', '--data', unrecorded, '--out', out, '--ignore-worlds'])).toMatchObject({
      code: 1,
      stderr: 'lendbot: --ignore-worlds needs --strategy FILE: the strategy the new model is checked in\n',
    });
    const unmodelled = await runCli([
      'train',
      'model',
      '--data',
      unrecorded,
      '--out',
      out,
      '--strategy',
      new URL('../../strategies/balanced.yaml', import.meta.url).pathname,
    ]);
    expect(unmodelled.code).toBe(1);
    expect(unmodelled.stderr).toContain('does not score with a model file (score.model)');
  });

  describe('train calibration', () => {
    // balanced 2.1.0, whose fitted calibration a new fit replaces (the shipped one learns its level: below).
    const balanced = new URL('../fixtures/balanced-fitted.yaml', import.meta.url).pathname;

    it("fits a strategy's score.calibration, prints the held-out table before and after, and writes the strategy with the block and nothing else changed", async () => {
      const out = join(dir, 'calibrated', 'balanced.yaml');
      const result = await runCli(['train', 'calibration', '--method', 'platt', '--strategy', balanced, '--data', data, '--out', out]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Calibration of balanced \(.*balanced-fitted\.yaml\), platt, on 1 recording\n/);
      expect(result.stdout).toMatch(/\n {2}.*market\.jsonl +1500 +\d+ +\d+ +\d+ +\d+\n/);
      expect(result.stdout).toMatch(/\nFitted on the first part of each recording \(\d+ requests\): platt a \d+\.\d+, b -?\d+\.\d+\n/);
      expect(result.stdout).toMatch(
        /\nHeld out, before \(the strategy as it is, (no calibration|platt a [-\d.]+, b [-\d.]+|isotonic, \d+ points \(.*\))\), by decile of predicted default, safest first\n {2}decile +n +predicted range/,
      );
      expect(result.stdout).toMatch(/\nHeld out, after \(the fitted calibration\)\n {2}decile/);
      expect(result.stdout).toMatch(
        /\n {2}(off: )?overall: predicts \d+\.\d % where \d+\.\d % happened \(95 % interval [\d.]+-[\d.]+ %, n=\d+\)/,
      );
      expect(result.stdout).toMatch(
        /\nmin_probability 0\.\d+ is unchanged and now reads on the calibrated scale; 0\.\d+ would let the same requests through as before\n/,
      );
      expect(result.stdout).toMatch(/\nWrote .*calibrated\/balanced\.yaml \(score\.calibration\)\n$/);
      const written = await readFile(out, 'utf8');
      const block =
        /\n {2}calibration:\n {4}method: platt\n {4}a: [\d.]+\n {4}b: -?[\d.]+\n {4}description: "lendbot train calibration --method platt: \d+ resolved requests the strategy scored, from market\.jsonl"\n/;
      expect(written).toMatch(block);
      const original = await readFile(balanced, 'utf8');
      expect(written.replace(block, '\n').replace(/\n {2}calibration:\n(?: {4}.*\n)+/, '\n')).toBe(
        original.replace(/\n {2}calibration:\n(?: {4}.*\n)+/, '\n'),
      );
      const strategy = await loadStrategyFile(out);
      expect(strategy.name).toBe('balanced');

      // Calibrating the calibrated file again fits on the score before its calibration: the same block.
      const again = join(dir, 'calibrated', 'again.yaml');
      expect((await runCli(['train', 'calibration', '--method', 'platt', '--strategy', out, '--data', data, '--out', again])).code).toBe(0);
      expect((await readFile(again, 'utf8')).match(block)?.[0]).toBe(written.match(block)?.[0]);
    });

    it('writes the fit as the seed of a learned calibration, which stays learned', async () => {
      const shipped = new URL('../../strategies/balanced.yaml', import.meta.url).pathname;
      const out = join(dir, 'calibrated', 'learned.yaml');
      const result = await runCli([
        'train',
        'calibration',
        '--method',
        'platt',
        '--strategy',
        shipped,
        '--data',
        data,
        '--out',
        out,
        '--ignore-worlds',
      ]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const written = await readFile(out, 'utf8');
      expect(written).toMatch(
        /\n {2}calibration:\n {4}method: learned\n {4}level_sd: 1\n {4}slope_sd: 0\.3\n {4}history_anchor: \{ sd: 1 \}\n {4}seed:\n {6}method: platt\n {6}a: [-\d.]+\n {6}b: [-\d.]+\n/,
      );
      const strategy = await loadStrategyFile(out);
      expect(strategy.name).toBe('balanced');
    });

    it('fits isotonic points and prints JSON with --json', async () => {
      const out = join(dir, 'calibrated', 'iso.yaml');
      const result = await runCli([
        'train',
        'calibration',
        '--method',
        'isotonic',
        '--strategy',
        balanced,
        '--data',
        data,
        '--out',
        out,
        '--json',
      ]);
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout) as {
        method: string;
        calibration: { method: string; points: number[][] };
        before: { overall: { n: number } };
        after: { overall: { n: number } };
        written: string;
      };
      expect(report.method).toBe('isotonic');
      expect(report.calibration.points.length).toBeGreaterThan(1);
      expect(report.before.overall.n).toBe(report.after.overall.n);
      expect(report.written).toBe(out);
      expect(await readFile(out, 'utf8')).toContain(
        '    method: isotonic\n    points:   # [score probability, calibrated probability]\n      - [',
      );
    });

    it('writes only when the calibration loses money held out in no borrower world, unless --ignore-worlds', async () => {
      // Without recorded acceptance, so the borrower worlds judge; balanced with a calibration
      // (platt 1, -1) whose replacement, fitted on this market, loses in the rate-insensitive world
      // (and, since the quality world no longer reads the recorded fate, in that one too).
      const unrecorded = await unrecordedCopy();
      const current = join(dir, 'platt.yaml');
      await writeFile(
        current,
        (await readFile(balanced, 'utf8')).replace(/ {2}calibration:\n(?: {4}.*\n)+/, '  calibration: { method: platt, a: 1, b: -1 }\n'),
      );
      const out = join(dir, 'calibrated', 'refused.yaml');
      const refused = await runCli([
        'train',
        'calibration',
        '--method',
        'platt',
        '--strategy',
        current,
        '--data',
        unrecorded,
        '--out',
        out,
      ]);
      expect(refused.code).toBe(3);
      expect(refused.stdout).toMatch(
        /\nHeld out, in money: the strategy with the calibration fitted on the first part against the strategy as it is \(balance [\d,.]+ USD, seed 1\)\n/,
      );
      expect(refused.stdout).toMatch(
        /\n {2}world +gain +95% interval +requests +funded\n {2}insensitive +-\d+\.\d\d% .*\n {2}linear .*\n {2}quality .*\n {2}assumed .*\n/,
      );
      expect(refused.stdout).not.toContain('Wrote');
      expect(refused.stderr).toMatch(
        /^lendbot: not written: the new calibration loses held out in insensitive -\d+\.\d\d points(?:, [a-z]+ -\d+\.\d\d points)*; .*refused\.yaml is unchanged \(--ignore-worlds writes it anyway\)\n$/,
      );
      await expect(readFile(out)).rejects.toThrow(/ENOENT/);
      const forced = await runCli([
        'train',
        'calibration',
        '--method',
        'platt',
        '--strategy',
        current,
        '--data',
        unrecorded,
        '--out',
        out,
        '--ignore-worlds',
        '--json',
      ]);
      expect(forced.code).toBe(0);
      const report = JSON.parse(forced.stdout) as { written: string; worlds_check: { holds: boolean; worlds: Array<{ world: string }> } };
      expect(report).toMatchObject({ written: out, worlds_check: { holds: false } });
      expect(report.worlds_check.worlds.map((w) => w.world)).toEqual(['insensitive', 'linear', 'quality', 'assumed']);
      expect(await readFile(out, 'utf8')).toContain('    method: platt\n');
    });

    it('says what is wrong with the options', async () => {
      const out = join(dir, 'never.yaml');
      expect(await runCli(['train', 'calibration', '--method', 'platt', '--data', data, '--out', out])).toMatchObject({
        code: 1,
        stderr: "error: required option '--strategy <file>' not specified\n(run with --help for usage)\n",
      });
      const bad = await runCli(['train', 'calibration', '--method', 'spline', '--strategy', balanced, '--data', data, '--out', out]);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain('expected platt or isotonic');
      const missing = await runCli([
        'train',
        'calibration',
        '--method',
        'platt',
        '--strategy',
        balanced,
        '--data',
        `${data},${join(dir, 'nowhere.jsonl')}`,
        '--out',
        out,
      ]);
      expect(missing).toMatchObject({ code: 1, stderr: `lendbot: cannot read ${join(dir, 'nowhere.jsonl')}: file not found\n` });
      await expect(readFile(out)).rejects.toThrow(/ENOENT/);
    });
  });
});
