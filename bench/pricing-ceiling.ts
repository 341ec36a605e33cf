/**
 * How far a lender can get (docs/backtesting.md, "How far a lender can get: the ceilings"):
 * figures printed, never asserted.
 *
 *   node --import tsx bench/pricing-ceiling.ts [--shapes shoppers,classic,urgent] [--seeds 1,2]
 *       [--requests 3000] [--arrivals 3] [--draws 3] [--strategy strategies/balanced.yaml] [--json out.json]
 *
 * For every shape and seed it exports a sandbox recording (as bench/decision-quality.ts does) and
 * backtests, on the whole recording and on its last 30 %, in the recorded world (acceptance from
 * each line's reservation rate) and in each borrower world of the band (reservation rates removed):
 * - the default strategy (--strategy), its cost-plus twin (margin 0.01), naive, and the oracle
 *   that knows every outcome (best of hurdles 0 to 0.4 a year on the recorded world), exactly as
 *   bench/decision-quality.ts runs them;
 * - the market clairvoyant: the default with sight of each borrower's reservation rate (the
 *   recorded one, or in a borrower world the one that world draws for the same market draw) and
 *   the recorded competing offer, pricing at its own calibrated probability;
 * - the risk clairvoyant: the default pricing with the sandbox's hidden repayment probability
 *   instead of its score's, under its own market response;
 * - both sights together (src/backtest/clairvoyant-strategies.ts);
 * - market sight, and both sights, with the oracle's privilege: the default's hurdle
 *   (target_return) of 0 to 0.2 a year that does best on the recorded world, whole recording;
 *   and both sights on the default without its filters and min_probability (only the hurdle,
 *   chosen the same way, decides whom it lends to: the oracle too lends at any risk level).
 * Each figure is the mean over --draws market draws of the net annualized return on the capital,
 * with the loans funded (mean over the draws) and, in the recorded world, the share of the
 * oracle's return. --json writes every figure for later tables.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { clairvoyantStrategy, recordedReservation, type ClairvoyantSight } from '../src/backtest/clairvoyant-strategies.js';
import { borrowerWorlds, defaultBalance, runDraws, summarizeDraws, type DrawFigures } from '../src/backtest/index.js';
import { DEFAULT_MARKET } from '../src/backtest/market-model.js';
import { oracleStrategy } from '../src/backtest/oracle-strategy.js';
import { sliceRecording } from '../src/backtest/prepared-recording.js';
import { compileStrategy, loadStrategyFile, parseStrategyText, type CompiledStrategy } from '../src/engine/index.js';
import { parse, stringify } from 'yaml';
import { hiddenRepayProbabilities } from './hidden-truth.js';
import { MARKET_GRID_OPTIONS, marketGrid, marketRecordings } from './market-grid.js';
import { pricingVariant, withoutReservations } from './variants.js';

const { values } = parseArgs({
  options: {
    ...MARKET_GRID_OPTIONS,
    shapes: { type: 'string', default: 'shoppers,classic,urgent' },
    strategy: { type: 'string', default: 'strategies/balanced.yaml' },
    json: { type: 'string' },
  },
});
const grid = marketGrid(values);
const { draws } = grid;
const HELD_OUT_FROM = 0.7;
const ORACLE_HURDLES = [0, 0.1, 0.2, 0.3, 0.4];
/** The hurdles (target_return a year) the best-hurdle clairvoyants choose from. */
const CLAIRVOYANT_HURDLES = [0, 0.04, 0.08, 0.12, 0.2];
const WORLDS = ['recorded', 'insensitive', 'linear', 'quality', 'assumed'] as const;

/** One strategy's figure in one world: mean net annualized return over the draws, and loans funded. */
interface Cell {
  mean: number;
  funded: number;
}
interface Row {
  shape: string;
  seed: number;
  period: string;
  strategy: string;
  cells: Record<string, Cell>;
}

const cellOf = (summary: { netAnnualizedReturn: { mean: number }; funded: { mean: number } }): Cell => ({
  mean: summary.netAnnualizedReturn.mean,
  funded: Math.round(summary.funded.mean),
});

/** What a candidate is in a world: one strategy for every draw, or one per draw (market sight in a borrower world draws its reservation rates per draw). */
type PerDraw = (seed: number) => CompiledStrategy;
interface Candidate {
  name: string;
  recorded: CompiledStrategy;
  blind: (world: string) => PerDraw;
}

/**
 * The strategy file without its filters and with min_probability 0: for the lender that knows the
 * true risk, only the hurdle decides whom to lend to (as the oracle, which lends at any risk level).
 */
function unfiltered(file: string): CompiledStrategy {
  const doc = parse(readFileSync(file, 'utf8')) as { name: string; filters: unknown[]; score: Record<string, unknown> };
  doc.name = `${doc.name}-unfiltered`;
  doc.filters = [];
  doc.score = { ...doc.score, min_probability: 0 };
  const text = stringify(doc);
  const variant = join(dirname(file), `${doc.name}.yaml`);
  return compileStrategy(parseStrategyText(text, variant), { file: variant, text });
}

const defaultStrategy = await loadStrategyFile(values.strategy);
const unfilteredDefault = unfiltered(values.strategy);
const twin = pricingVariant(values.strategy, 'cost-plus', { mode: 'cost_plus', margin: 0.01 });
const naive = await loadStrategyFile('strategies/examples/naive.yaml');
const dir = mkdtempSync(join(tmpdir(), 'lendbot-ceiling-'));
const rows: Row[] = [];
try {
  for await (const { shape, seed, recording } of marketRecordings(grid, dir)) {
    const truth = hiddenRepayProbabilities({ seed, requests: grid.requests, shape, arrivalsPerHour: grid.arrivalsPerHour });
    const risk: ClairvoyantSight = { repayProbability: (id) => truth.get(id) };
    const options = { startingBalanceCents: defaultBalance(recording).cents };
    const cut = Math.round(recording.entries.length * HELD_OUT_FROM);
    /** The hurdle of `hurdles` whose strategy does best on the recorded world over the whole recording. */
    const bestHurdle = (hurdles: readonly number[], make: (h: number) => CompiledStrategy): number =>
      hurdles
        .map((h) => ({ h, mean: runDraws(recording, [make(h)], options, draws).draws.netAnnualizedReturn.mean }))
        .reduce((a, b) => (b.mean > a.mean ? b : a)).h;
    // As bench/decision-quality.ts: the oracle knows which hurdle suits this market.
    const oracleHurdle = bestHurdle(ORACLE_HURDLES, (h) => oracleStrategy(recording, undefined, h));
    // The same privilege for market sight: the default's hurdle (target_return) as it is, and the best one.
    const hurdled = (h: number): CompiledStrategy => defaultStrategy.withParams({ target_return: h });
    const marketHurdle = bestHurdle(CLAIRVOYANT_HURDLES, (h) =>
      clairvoyantStrategy(hurdled(h), recording, { reservation: recordedReservation }, 'market-clairvoyant'),
    );
    const bothHurdle = bestHurdle(CLAIRVOYANT_HURDLES, (h) =>
      clairvoyantStrategy(hurdled(h), recording, { ...risk, reservation: recordedReservation }, 'both-clairvoyant'),
    );
    const openHurdled = (h: number): CompiledStrategy => unfilteredDefault.withParams({ target_return: h });
    const openHurdle = bestHurdle(CLAIRVOYANT_HURDLES, (h) =>
      clairvoyantStrategy(openHurdled(h), recording, { ...risk, reservation: recordedReservation }, 'both-clairvoyant'),
    );
    const periods = [
      { name: 'all', recording },
      { name: 'last 30 %', recording: sliceRecording(recording, cut, recording.entries.length) },
    ];
    for (const period of periods) {
      const rec = period.recording;
      const stripped = withoutReservations(rec);
      const worlds = borrowerWorlds(stripped, DEFAULT_MARKET.response);
      const same =
        (strategy: CompiledStrategy): PerDraw =>
        () =>
          strategy;
      /**
       * Market sight over `base`: the recorded reservation rates in the recorded world; in a
       * borrower world, the rate that world draws for the line in the same market draw.
       */
      const sighted = (name: string, base: CompiledStrategy, extra: ClairvoyantSight): Candidate => ({
        name,
        recorded: clairvoyantStrategy(base, rec, { ...extra, reservation: recordedReservation }, name),
        blind: (worldName) => (drawSeed) => {
          const world = worlds.find((w) => w.name === worldName);
          return clairvoyantStrategy(base, stripped, { ...extra, reservation: (line) => world?.reservation(line, drawSeed) }, name);
        },
      });
      const riskSighted = clairvoyantStrategy(defaultStrategy, rec, risk, 'risk clairvoyant');
      const candidates: Candidate[] = [
        { name: 'default', recorded: defaultStrategy, blind: () => same(defaultStrategy) },
        { name: 'cost-plus twin', recorded: twin, blind: () => same(twin) },
        { name: 'naive', recorded: naive, blind: () => same(naive) },
        // In the recorded world the oracle reads the reservation rates; in the others it cannot.
        {
          name: `oracle (hurdle ${oracleHurdle})`,
          recorded: oracleStrategy(rec, undefined, oracleHurdle),
          blind: () => same(oracleStrategy(stripped, undefined, oracleHurdle)),
        },
        sighted('market clairvoyant', defaultStrategy, {}),
        {
          name: 'risk clairvoyant',
          recorded: riskSighted,
          blind: () => same(clairvoyantStrategy(defaultStrategy, stripped, risk, 'risk clairvoyant')),
        },
        sighted('both clairvoyant', defaultStrategy, risk),
        sighted(`market clairvoyant (hurdle ${marketHurdle})`, hurdled(marketHurdle), {}),
        sighted(`both clairvoyant (hurdle ${bothHurdle})`, hurdled(bothHurdle), risk),
        sighted(`both clairvoyant, no filters (hurdle ${openHurdle})`, openHurdled(openHurdle), risk),
      ];
      for (const candidate of candidates) {
        const out: Record<string, Cell> = { recorded: cellOf(runDraws(rec, [candidate.recorded], options, draws).draws) };
        for (const world of worlds) {
          const perDraw = candidate.blind(world.name);
          const figures = draws.map(
            (s) => runDraws(stripped, [perDraw(s)], { ...options, world, recordDecisions: false }, [s]).draws.draws[0] as DrawFigures,
          );
          out[world.name] = cellOf(summarizeDraws(figures));
        }
        rows.push({ shape, seed, period: period.name, strategy: candidate.name, cells: out });
      }
      console.error(`done ${shape} seed ${seed} ${period.name}`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const oracleOf = (row: Row): Row | undefined =>
  rows.find((r) => r.shape === row.shape && r.seed === row.seed && r.period === row.period && r.strategy.startsWith('oracle'));
console.log(
  `${grid.requests} requests per market, ${draws.length} draws each; net annualized return on the capital (loans funded); share of the oracle's return in the same world`,
);
console.log(['shape', 'seed', 'period', 'strategy', ...WORLDS, 'share of oracle, recorded', 'share of oracle, quality'].join(' | '));
for (const row of rows) {
  const oracle = oracleOf(row);
  const share = (world: string): string => {
    const o = oracle?.cells[world]?.mean;
    const x = row.cells[world]?.mean;
    return o === undefined || x === undefined || o <= 0 ? '-' : `${Math.round((x / o) * 100)} %`;
  };
  const cell = (world: string): string => {
    const c = row.cells[world];
    return c === undefined ? '-' : `${pct(c.mean)} (${c.funded})`;
  };
  console.log(
    [row.shape, String(row.seed), row.period, row.strategy, ...WORLDS.map(cell), share('recorded'), share('quality')].join(' | '),
  );
}
if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify({ requests: grid.requests, draws, rows }, null, 1)}\n`);
