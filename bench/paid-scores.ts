/**
 * Do the paid scores pay for themselves? (figures printed, never asserted)
 *
 *   node --import tsx bench/paid-scores.ts [--requests 6000] [--arrivals 3] [--seeds 1,2] [--shapes classic,credit,burden,volatility]
 *                                          [--draws 3] [--strategy strategies/examples/paid-scores.yaml]
 *
 * For every shape and seed it exports a sandbox recording (whose lines carry provider A's and B's
 * scores wherever the request has bank data, as the sandbox's 4.5 route would answer) and
 * backtests the strategy twice on the same market draws: as it is, and without the paid scores
 * (its data section's providers and every provider_* filter and score term removed; all else the
 * same). It prints the sample (requests, months, loans funded), the data spend (of which provider
 * A's subscriptions), the net of each, the gain before data spend and the net gain, as means over
 * the draws with the smallest and largest paired net gain. The balance is the backtest's default
 * for the recording (docs/backtesting.md).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse, stringify } from 'yaml';
import { defaultBalance, runBacktest, type PreparedRecording } from '../src/backtest/index.js';
import { compileStrategy, parseStrategyText, type CompiledStrategy } from '../src/engine/index.js';
import { MARKET_GRID_OPTIONS, marketGrid, marketRecordings } from './market-grid.js';
import { formatCents } from '../src/domain/index.js';

const { values } = parseArgs({
  options: {
    ...MARKET_GRID_OPTIONS,
    strategy: { type: 'string', default: 'strategies/examples/paid-scores.yaml' },
  },
});
const grid = marketGrid(values);
const { requests, draws } = grid;

interface Section {
  feature?: string;
}

/** The strategy file as it is, and without its paid scores. */
function strategies(file: string): { paid: CompiledStrategy; free: CompiledStrategy } {
  const text = readFileSync(file, 'utf8');
  const doc = parse(text) as Record<string, unknown> & {
    data?: Record<string, unknown>;
    filters?: Section[];
    score?: Record<string, { terms?: Section[] }>;
  };
  const paidFeature = (section: Section): boolean => section.feature?.startsWith('provider_') === true;
  delete doc.data?.provider_a;
  delete doc.data?.provider_b;
  if (doc.data) doc.data.monthly_budget = 0;
  if (doc.filters) doc.filters = doc.filters.filter((filter) => !paidFeature(filter));
  for (const model of Object.values(doc.score ?? {})) {
    if (typeof model === 'object' && model !== null && Array.isArray(model.terms))
      model.terms = model.terms.filter((term) => !paidFeature(term));
  }
  doc.name = `${String(doc.name)}-without-scores`;
  const freeText = stringify(doc);
  return {
    paid: compileStrategy(parseStrategyText(text, file), { file, text }),
    free: compileStrategy(parseStrategyText(freeText, 'free.yaml'), { file: 'free.yaml', text: freeText }),
  };
}

const { paid, free } = strategies(values.strategy);
const usd = (cents: number): string => formatCents(Math.round(cents));
const mean = (xs: readonly number[]): number => xs.reduce((sum, x) => sum + x, 0) / xs.length;
const dir = mkdtempSync(join(tmpdir(), 'lendbot-paid-'));
const rows: string[][] = [];
const totals = { spend: 0, gainBefore: 0, net: 0 };

function months(recording: PreparedRecording): number {
  const first = recording.entries[0]?.seenMs ?? 0;
  const last = recording.entries.at(-1)?.seenMs ?? 0;
  return (last - first) / (30.44 * 86_400_000);
}

try {
  for await (const { shape, seed, recording } of marketRecordings(grid, dir)) {
    const startingBalanceCents = defaultBalance(recording).cents;
    const runs = draws.map((drawSeed) => {
      const options = { startingBalanceCents, market: { seed: drawSeed } };
      return { paid: runBacktest(recording, [paid], options).summary, free: runBacktest(recording, [free], options).summary };
    });
    const spend = mean(runs.map((run) => run.paid.dataSpendCents));
    const subscriptions = mean(runs.map((run) => run.paid.subscriptionCents));
    const netPaid = mean(runs.map((run) => run.paid.netCents));
    const netFree = mean(runs.map((run) => run.free.netCents));
    const gains = runs.map((run) => run.paid.netCents - run.free.netCents);
    const gainBefore = netPaid + spend - netFree;
    totals.spend += spend;
    totals.gainBefore += gainBefore;
    totals.net += netPaid - netFree;
    rows.push([
      shape,
      String(seed),
      `${recording.entries.length} / ${months(recording).toFixed(1)}`,
      `${Math.round(mean(runs.map((run) => run.paid.funded)))} / ${Math.round(mean(runs.map((run) => run.free.funded)))}`,
      `${usd(spend)} (A ${usd(subscriptions)})`,
      usd(netFree),
      usd(netPaid),
      usd(gainBefore),
      `${usd(netPaid - netFree)} [${usd(Math.min(...gains))}, ${usd(Math.max(...gains))}]`,
    ]);
    console.error(`done ${shape} seed ${seed}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(`${paid.name} against ${free.name}: ${requests} requests per market, mean of ${draws.length} draws; USD`);
console.log(
  [
    'shape',
    'seed',
    'requests / months',
    'funded paid / free',
    'data spend (A subscriptions)',
    'net free',
    'net paid',
    'gain before data',
    'net gain [min, max draw]',
  ].join(' | '),
);
for (const row of rows) console.log(row.join(' | '));
console.log(`all markets: data spend ${usd(totals.spend)}, gain before data ${usd(totals.gainBefore)}, net gain ${usd(totals.net)}`);
