/**
 * A recording that cannot judge any offer, as `lendbot record export` writes it from a sandbox dry
 * run: every line without an outcome (the daemon lent nothing, so it knows no fate). The report
 * names such a run "cannot be judged" in the verdict, the headline and the side-by-side table,
 * instead of "earned 0.0% ... level with naive", and leaves out the band and the sensitivity
 * table, which would only repeat 0 %.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSandboxRecording } from '../../src/sandbox/index.js';
import { runCli } from './run-cli.js';

describe('lendbot backtest on a recording without outcomes (a dry run’s export)', () => {
  let dir: string;
  let data: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-unjudgeable-'));
    const exported = join(dir, 'sandbox.jsonl');
    await exportSandboxRecording(exported, { seed: 2, requests: 300, arrivalsPerHour: 3 });
    // What a dry run's record export holds: the requests as seen, no outcome.
    const lines = (await readFile(exported, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const { outcome: _unknown, ...seen } = JSON.parse(line) as Record<string, unknown>;
        return JSON.stringify(seen);
      });
    data = join(dir, 'dry.jsonl');
    await writeFile(data, `${lines.join('\n')}\n`);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('says "cannot be judged" in the verdict, headline and side by side, with no band and no sensitivity table', async () => {
    const json = join(dir, 'dry.json');
    const html = join(dir, 'dry.html');
    const strategies = 'strategies/balanced.yaml,strategies/examples/naive.yaml';
    const result = await runCli(['backtest', '--data', data, '--strategy', strategies, '--draws', '2', '--json', json, '--html', html]);
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(
      /^Verdict: balanced and naive cannot be judged: all their offers \(\d+ and \d+\) were on requests the recording has no outcome for, so nothing says whether a borrower would have taken one or how the loan would have repaid \(a daemon's own export knows only the outcomes of its own loans, a dry run's none: backtest a recording with outcomes, such as one from lendbot sandbox export\)\.\n/,
    );
    expect(out).not.toMatch(/earned [-\d]|level with|beating/);
    expect(out).toMatch(
      /\nNet annualized return on capital: cannot be judged: all \d+ of its offers were on requests the recording has no outcome for/,
    );
    expect(out).not.toContain('Net annualized return on capital (idle cash included)');
    expect(out).not.toContain('across borrower worlds');
    expect(out.match(/\nSensitivity: none: the recording could judge no offer, so no take-up curve changes anything\n/g)).toHaveLength(2);
    expect(out).not.toContain('as assumed');
    expect(out).toMatch(/\n {2}net ann\. return, mean of 2 draws +cannot be judged +cannot be judged\n/);
    expect(out).toMatch(
      /\n {2}net ann\. return of draw 1 \(seed \d+; the rows below are its figures\) +cannot be judged +cannot be judged\n/,
    );
    const written = JSON.parse(await readFile(json, 'utf8')) as { worlds: unknown[]; sensitivity: unknown[][]; verdict: string };
    expect(written.worlds).toEqual([null, null]);
    expect(written.sensitivity).toEqual([[], []]);
    expect(written.verdict).toMatch(/^balanced and naive cannot be judged/);
    const page = await readFile(html, 'utf8');
    expect(
      page.match(/<p class="headline" data-judged="no">Net annualized return on capital: <strong>cannot be judged<\/strong>/g),
    ).toHaveLength(2);
    expect(page).toMatch(
      /<table class="comparison">.*<th>net ann\. return of draw 1 \(seed \d+; the rows below are its figures\)<\/th><td>cannot be judged<\/td><td>cannot be judged<\/td>/s,
    );
    expect(page.match(/<p class="sensitivity-note">Sensitivity: none: the recording could judge no offer/g)).toHaveLength(2);
    expect(page).not.toContain('<table class="sensitivity">');
    expect(page).not.toContain('<h2>Across borrower worlds</h2>');
    // The warnings say why nothing was funded, not that 0 loans are too few.
    const offers = /all (\d+) of its offers/.exec(out)?.[1] ?? 'none';
    expect(page).toContain(`balanced: ${offers} of ${offers} offers (100.0%) were on requests the recording has no outcome for`);
    expect(page).not.toContain('fewer than 100 funded loans');
  });
});
