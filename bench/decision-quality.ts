/**
 * Decision quality across borrower worlds on several sandbox markets (figures printed, never asserted):
 *
 *   node --import tsx bench/decision-quality.ts [--requests 6000] [--arrivals 3] [--seeds 1,2]
 *       [--shapes classic,credit,burden,volatility,shoppers,urgent] [--draws 3] [--strategy strategies/balanced.yaml]
 *       [--learning 1,2] [--explore-share 0.05] [--curse 0.5] [--also strategies/a.yaml,strategies/b.yaml]
 *
 * For every shape and seed it exports a sandbox recording (--arrivals requests an hour: 6000 at 3
 * an hour span about 12 weeks, so repaid cash is lent again), whose lines carry each borrower's
 * reservation rate, and backtests four strategies on the whole recording and on its last 30 %
 * (the held-out period; the first 70 % trains the model of the trained strategy):
 * - the default strategy (--strategy), a cost-plus twin of it (the same file with
 *   `pricing.mode: cost_plus` and `margin: 0.01`), strategies/examples/naive.yaml, and the oracle
 *   that knows every outcome (best of hurdles 0 to 0.4 a year, chosen on the recorded world);
 *   held out, also strategies/examples/trained.yaml with a model fitted on the first 70 %;
 * - the default strategy with learning on, once per --learning prior_sd (`pricing.learning:
 *   { enabled: true, prior_sd, explore_share: --explore-share }`; an empty --learning leaves it
 *   out): every replay (each draw and world) feeds its own learner every fate as the replay
 *   settles it, as bench/market-learning.ts does; over the whole recording the learner starts
 *   from the strategy's prior, held out it has first learned from the first 70 % in the same
 *   world and draw (as a live bot would have: bench/carried-learning.ts); and each --also
 *   strategy file as it is (variants to compare);
 * - the default strategy pricing for the winner's curse, once per --curse prior_sd
 *   (`pricing.winners_curse: { enabled: true, prior_sd }`; empty by default): every replay feeds
 *   its own learner each funded loan's fate once the loan's term has passed in the replay (so
 *   over the whole recording it learns nothing before the requests end: a few weeks hold no
 *   finished loan); held out, it carries what it learned from the first 70 % (its own funded
 *   loans there, every fate the recording knows, as the trained strategy's model does);
 * - in the recorded world (acceptance from each line's reservation_rate: what the sandbox's
 *   borrowers did) and, with the reservation rates removed, in each borrower world of the
 *   backtest's band (docs/backtesting.md): the mean over --draws market draws of the net
 *   annualized return on the capital with the loans funded, the band's low and high ends and
 *   whether the recorded figure lies within it, and the adverse-selection ratio (funded / offered
 *   realised default, 95 % interval, funded loans of known fate) in the recorded and the
 *   quality-tied world.
 * The balance is the backtest's default for the whole recording (docs/backtesting.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  defaultBalance,
  runDraws,
  runWorlds,
  type BacktestOptions,
  type DrawsSummary,
  type OfferStats,
  type PreparedRecording,
} from '../src/backtest/index.js';
import { oracleStrategy } from '../src/backtest/oracle-strategy.js';
import { sliceRecording } from '../src/backtest/prepared-recording.js';
import { loadStrategyFile, type CompiledStrategy } from '../src/engine/index.js';
import { carriedWorlds } from './carried-learning.js';
import { MARKET_GRID_OPTIONS, marketGrid, marketRecordings } from './market-grid.js';
import { bestOracleHurdle, costPlusTwin, TRAIN_SHARE, trainedStrategy } from './reference-strategies.js';
import { pricingVariant, withoutReservations } from './variants.js';

const { values } = parseArgs({
  options: {
    ...MARKET_GRID_OPTIONS,
    shapes: { type: 'string', default: 'classic,credit,burden,volatility,shoppers,urgent' },
    strategy: { type: 'string', default: 'strategies/balanced.yaml' },
    learning: { type: 'string', default: '1' },
    'explore-share': { type: 'string', default: '0.05' },
    curse: { type: 'string', default: '' },
    also: { type: 'string', default: '' },
  },
});
const grid = marketGrid(values);
const { requests, draws } = grid;

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const ratio = (stats: OfferStats | undefined): string => {
  const r = stats?.adverseSelection;
  if (!r || r.low === null || r.high === null) return `- (n ${stats?.fundedDefault.n ?? 0})`;
  return `${r.ratio === null ? '-' : r.ratio.toFixed(2)} [${r.low.toFixed(2)}, ${r.high.toFixed(2)}] (n ${stats.fundedDefault.n})`;
};

const dir = mkdtempSync(join(tmpdir(), 'lendbot-dq-'));

/** A strategy's net annualized return (mean over the draws), loans funded and offer statistics: recorded, and per borrower world. */
interface WorldFigure {
  world: string;
  mean: number;
  funded: number;
  stats: OfferStats | undefined;
}
interface Figures {
  recorded: Omit<WorldFigure, 'world'>;
  worlds: WorldFigure[];
}

const figureOf = (world: string, summary: DrawsSummary, stats: OfferStats | undefined): WorldFigure => ({
  world,
  mean: summary.netAnnualizedReturn.mean,
  funded: Math.round(summary.funded.mean),
  stats,
});

/** Every run starts afresh (a learning strategy from its prior). */
function freshFigures(
  recording: PreparedRecording,
  stripped: PreparedRecording,
  candidate: { full: CompiledStrategy; blind: CompiledStrategy },
  options: BacktestOptions,
): Figures {
  const run = runDraws(recording, [candidate.full], options, draws);
  const band = runWorlds(stripped, [candidate.blind], options, draws);
  return {
    recorded: figureOf('recorded', run.draws, run.first.offerStats[0]),
    worlds: band.worlds.map((w) => figureOf(w.world, w.draws, w.offerStats[0])),
  };
}

const defaultStrategy = await loadStrategyFile(values.strategy);
const twin = costPlusTwin(values.strategy);
const naive = await loadStrategyFile('strategies/examples/naive.yaml');
const exploreShare = Number(values['explore-share']);
const learners = values.learning
  .split(',')
  .filter((sd) => sd !== '')
  .map((sd) => ({
    name: `default, learning (prior_sd ${sd}, explore ${exploreShare})`,
    strategy: pricingVariant(values.strategy, `learning-${sd}`, {
      learning: { enabled: true, prior_sd: Number(sd), explore_share: exploreShare },
    }),
  }));
const cursed = values.curse
  .split(',')
  .filter((sd) => sd !== '')
  .map((sd) => ({
    name: `default, winner's curse (prior_sd ${sd})`,
    strategy: pricingVariant(values.strategy, `curse-${sd.replace('.', '_')}`, { winners_curse: { enabled: true, prior_sd: Number(sd) } }),
  }));
const extras = await Promise.all(
  values.also
    .split(',')
    .filter((file) => file !== '')
    .map(async (file) => ({ name: file, strategy: await loadStrategyFile(file) })),
);
const rows: string[][] = [];
try {
  for await (const { shape, seed, file, recording } of marketRecordings(grid, dir)) {
    const balance = defaultBalance(recording).cents;
    const cut = Math.round(recording.entries.length * TRAIN_SHARE);
    const periods = [
      { name: 'all', recording },
      { name: 'last 30 %', recording: sliceRecording(recording, cut, recording.entries.length) },
    ];
    const hurdle = bestOracleHurdle(recording, { startingBalanceCents: balance }, draws);
    const train = sliceRecording(recording, 0, cut);
    const trained = await trainedStrategy(train, file, dir);
    const heldOut = periods[1]?.recording ?? recording;
    const carriedPeriods = { train, heldOut, strippedTrain: withoutReservations(train), strippedHeldOut: withoutReservations(heldOut) };
    /** Held out, a learning strategy's learner has lived through the first 70 % (in the same world and draw). */
    const carriedFigures = (strategy: CompiledStrategy, options: BacktestOptions): Figures => {
      const carried = carriedWorlds(carriedPeriods, strategy, options, draws);
      return {
        recorded: figureOf('recorded', carried.recorded.draws, carried.recorded.stats),
        worlds: carried.worlds.map((w) => figureOf(w.world, w.draws, w.stats)),
      };
    };
    for (const period of periods) {
      const stripped = withoutReservations(period.recording);
      const candidates: Array<{ name: string; full: CompiledStrategy; blind: CompiledStrategy; carry?: boolean }> = [
        { name: 'default', full: defaultStrategy, blind: defaultStrategy },
        ...learners.map(({ name, strategy }) => ({ name, full: strategy, blind: strategy, carry: true })),
        ...cursed.map(({ name, strategy }) => ({ name, full: strategy, blind: strategy, carry: true })),
        ...extras.map(({ name, strategy }) => ({ name, full: strategy, blind: strategy })),
        { name: 'cost-plus twin', full: twin, blind: twin },
        { name: 'naive', full: naive, blind: naive },
        // In the recorded world the oracle reads the reservation rates; in the others it cannot.
        {
          name: `oracle (hurdle ${hurdle})`,
          full: oracleStrategy(period.recording, undefined, hurdle),
          blind: oracleStrategy(stripped, undefined, hurdle),
        },
        ...(period.name === 'all' ? [] : [{ name: 'trained (first 70 %)', full: trained, blind: trained }]),
      ];
      for (const candidate of candidates) {
        const options = { startingBalanceCents: balance };
        const figures =
          candidate.carry === true && period.name !== 'all'
            ? carriedFigures(candidate.full, options)
            : freshFigures(period.recording, stripped, candidate, options);
        const { recorded } = figures;
        const world = (name: string) => figures.worlds.find((w) => w.world === name);
        const cell = (name: string): string => {
          const w = world(name);
          return w ? `${pct(w.mean)} (${w.funded})` : '-';
        };
        const lowWorld = figures.worlds.reduce<(typeof figures.worlds)[number] | undefined>(
          (a, b) => (a === undefined || b.mean < a.mean ? b : a),
          undefined,
        );
        const low = lowWorld?.mean ?? Number.NaN;
        const high = Math.max(...figures.worlds.map((w) => w.mean));
        rows.push([
          shape,
          String(seed),
          period.name,
          candidate.name,
          `${pct(recorded.mean)} (${recorded.funded})`,
          cell('insensitive'),
          cell('linear'),
          cell('quality'),
          cell('assumed'),
          `${pct(low)} to ${pct(high)} (${lowWorld?.world ?? '-'})`,
          recorded.mean >= low && recorded.mean <= high ? 'yes' : recorded.mean < low ? 'below' : 'above',
          ratio(recorded.stats),
          ratio(world('quality')?.stats),
        ]);
      }
    }
    console.error(`done ${shape} seed ${seed}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `${requests} requests per market, ${draws.length} draws each; net annualized return on the capital (loans funded); adverse selection: funded / offered realised default [95 %] (funded loans of known fate)`,
);
console.log(
  [
    'shape',
    'seed',
    'period',
    'strategy',
    'recorded',
    'insensitive',
    'linear',
    'quality',
    'assumed',
    'band (low end)',
    'recorded in band',
    'adverse selection, recorded',
    'adverse selection, quality world',
  ].join(' | '),
);
for (const row of rows) console.log(row.join(' | '));
