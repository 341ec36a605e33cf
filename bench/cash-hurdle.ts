/**
 * The price of scarce cash, on and off (figures printed, never asserted):
 *
 *   node --import tsx bench/cash-hurdle.ts [--requests 3000] [--arrivals 3] [--seeds 1,2]
 *       [--shapes classic,shoppers] [--draws 2] [--strategy strategies/balanced.yaml] [--balances 1,0.25]
 *
 * For every shape and seed it exports a sandbox recording and backtests the strategy as written
 * (cash_hurdle off) and with `pricing.cash_hurdle: { enabled: true }` (defaults max_raise 0.05,
 * max_cut 0.03, window_days 14), in the recorded world (each line's reservation rate), at each
 * --balances share of the backtest's default balance (a small share makes cash bind). Per run:
 * the mean over --draws market draws of the net annualized return on capital, loans funded,
 * share of capital idle, offers the guard refused for cash and accepted offers left unfunded.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse, stringify } from 'yaml';
import { defaultBalance, runDraws } from '../src/backtest/index.js';
import { compileStrategy, parseStrategyText, type CompiledStrategy } from '../src/engine/index.js';
import { MARKET_GRID_OPTIONS, marketGrid, marketRecordings } from './market-grid.js';

const { values } = parseArgs({
  options: {
    ...MARKET_GRID_OPTIONS,
    requests: { type: 'string', default: '3000' },
    shapes: { type: 'string', default: 'classic,shoppers' },
    draws: { type: 'string', default: '2' },
    strategy: { type: 'string', default: 'strategies/balanced.yaml' },
    balances: { type: 'string', default: '1,0.25' },
  },
});
const grid = marketGrid(values);
const shares = values.balances.split(',').map(Number);
const dir = mkdtempSync(join(tmpdir(), 'lendbot-cash-'));
const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

/** The strategy file with its cash hurdle on or off. */
function variant(file: string, enabled: boolean): CompiledStrategy {
  const doc = parse(readFileSync(file, 'utf8')) as { name: string; pricing: Record<string, unknown> };
  doc.name = `${doc.name}-cash-${enabled ? 'on' : 'off'}`;
  doc.pricing = { ...doc.pricing, cash_hurdle: { enabled } };
  const text = stringify(doc);
  const path = join(dir, `${doc.name}.yaml`);
  writeFileSync(path, text);
  return compileStrategy(parseStrategyText(text, path), { file: path, text });
}

const off = variant(values.strategy, false);
const on = variant(values.strategy, true);
const rows: string[][] = [];
try {
  for await (const { shape, seed, recording } of marketRecordings(grid, dir)) {
    const full = defaultBalance(recording).cents;
    for (const share of shares) {
      for (const [name, strategy] of [
        ['off', off],
        ['on', on],
      ] as const) {
        const { first, draws } = runDraws(recording, [strategy], { startingBalanceCents: Math.round(full * share) }, grid.draws);
        const s = first.summary;
        rows.push([
          shape,
          String(seed),
          `${share} × default`,
          name,
          pct(draws.netAnnualizedReturn.mean),
          draws.funded.mean.toFixed(0),
          pct(1 - s.capitalUtilization),
          String(s.guardRefusals.insufficient_balance ?? 0),
          String(s.fundingFailures),
          String(s.offers),
        ]);
      }
    }
    console.error(`done ${shape} seed ${seed}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${grid.requests} requests per market, ${grid.draws.length} draws; idle, refusals and offers of the first draw`);
console.log(
  ['shape', 'seed', 'balance', 'cash_hurdle', 'net ann. return', 'funded', 'capital idle', 'refused for cash', 'unfundable', 'offers'].join(
    ' | ',
  ),
);
for (const row of rows) console.log(row.join(' | '));
