// A strategy pricing for expected profit against the unfitted default market is named as such by
// the backtest report (text and HTML) and lendbot status; one with a market file is not.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticRecording, writeRecording } from '../backtest/recording-fixtures.js';
import { tempStore } from '../store/fixtures.js';
import { seedStatusData } from '../ops/status-fixtures.js';
import { runCli } from './run-cli.js';

const UNFITTED = 'prices with the unfitted default market; fit one with lendbot train';
const MARKET = {
  format: 'lendbot-market',
  version: 1,
  competition: { share: 0.8, intercept: 0.12, per_default: 0.6, spread: 0.05 },
  take_up: { midpoint: 0.4, steepness: 8 },
};

describe('the unfitted default market, said where a lender looks', () => {
  let dir: string;
  let data: string;
  let fitted: string;
  const balanced = resolve('strategies/balanced.yaml');
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-unfitted-'));
    data = join(dir, 'rec.jsonl');
    await writeRecording(
      data,
      syntheticRecording(80, 5, () => 1),
    );
    await writeFile(join(dir, 'market.json'), JSON.stringify(MARKET));
    // balanced, with the market file added under pricing.
    const text = await readFile(balanced, 'utf8');
    fitted = join(dir, 'fitted.yaml');
    await writeFile(
      fitted,
      text
        .replace('name: balanced', 'name: fitted')
        .replace(/^ {2}mode: expected_profit$/m, '  mode: expected_profit\n  market: { file: market.json }'),
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('in the backtest report under the strategy, text and HTML, only for the strategy without a fit', async () => {
    const html = join(dir, 'out.html');
    const result = await runCli(['backtest', '--data', data, '--strategy', `${balanced},${fitted}`, '--html', html]);
    expect(result.code).toBe(0);
    // One report per strategy: the line follows balanced's, and fitted's has none.
    expect(result.stdout).toMatch(new RegExp(`\\nStrategy balanced [^\\n]+\\n {2}${UNFITTED}\\n`));
    expect(result.stdout).toMatch(/\nStrategy fitted [^\n]+\n(?! {2}prices)/);
    expect(result.stdout.split(UNFITTED)).toHaveLength(2);
    const page = await readFile(html, 'utf8');
    expect(page.split(UNFITTED)).toHaveLength(2);
    expect(page).toMatch(new RegExp(`<code>balanced</code>[^<]*(<[^>]+>[^<]*)*<strong class="unfitted-market">${UNFITTED}</strong>`));
  });

  it('in lendbot status, text and JSON', async () => {
    const h = tempStore();
    try {
      seedStatusData(h.store, { decisions: 3, nowMs: Date.now() });
      h.store.close();
      const config = join(dir, 'lendbot.yaml');
      await writeFile(config, `strategies: [${balanced}, ${fitted}]\n`);
      const text = await runCli(['status', '--db', h.path, '--config', config]);
      expect(text.stdout).toMatch(new RegExp(`\\n {2}market balanced +${UNFITTED}\\n`));
      expect(text.stdout).not.toMatch(/market fitted/);
      const json = JSON.parse((await runCli(['status', '--db', h.path, '--config', config, '--json'])).stdout) as {
        data_spend: { budgets: Array<{ strategy: string; market_source?: string }> };
      };
      expect(json.data_spend.budgets.map((b) => [b.strategy, b.market_source])).toEqual([
        ['balanced', 'default'],
        ['fitted', 'file'],
      ]);
    } finally {
      h.cleanup();
    }
  });

  it('names the part still unfitted when a market file carries only competition', async () => {
    const { take_up: _ignored, ...competitionOnly } = MARKET;
    await writeFile(join(dir, 'competition.json'), JSON.stringify(competitionOnly));
    const partly = join(dir, 'partly.yaml');
    await writeFile(
      partly,
      (await readFile(fitted, 'utf8'))
        .replace('name: fitted', 'name: partly')
        .replace('market: { file: market.json }', 'market: { file: competition.json }'),
    );
    const result = await runCli(['backtest', '--data', data, '--strategy', partly, '--draws', '1', '--no-sensitivity']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /\nStrategy partly [^\n]+\n {2}prices take-up with the unfitted default \(file competition, default take-up\); fit it with lendbot train\n/,
    );
    expect(result.stdout).not.toContain(UNFITTED);
  });
});
