/**
 * Shipped defaults across worlds (issue 35; figures printed, never asserted):
 *
 *   node --import tsx bench/shipped-defaults.ts [--strategy strategies/balanced.yaml,strategies/conservative.yaml,strategies/cashflow.yaml]
 *       [--worlds shoppers,classic,urgent,lending-club] [--seeds 1,2] [--scales 1,0.4,0.7,1.5]
 *       [--links bank-led,peaked-middle] [--histories market,uniform] [--requests 5000] [--days 150] [--balance 100000] [--draws 1]
 *       [--yardstick test/fixtures/balanced-2.0.0.yaml]
 *
 * A shipped default must hold on every world, not win on one. The worlds: each sandbox shape and
 * seed at each default scale (odds of default x0.4 to x1.5) and with each score link
 * (docs/sandbox.md, "Shifted worlds"), each with each way of pricing borrowers' past loans
 * (--histories: market, the default, or uniform, the sandbox's before issue 35), --requests
 * requests arriving over --days days; and the
 * 9,857 real LendingClub loans over the same days (docs/lending-club.md). Every recording is
 * written to a temporary folder and removed at the end.
 *
 * For each world and strategy it prints: the net annualized return on the balance over the whole
 * recording and held out (the last 30 %, a fresh balance), loans funded, the same for the
 * strategy's cost-plus twin and for naive max-rate, the oracle's return, the moonshot's (the
 * strategy knowing every reservation rate and competing offer, not the outcomes; n/a on
 * LendingClub, which records no reservation rate) and the held-out return
 * of a strategy trained on the first 70 %, and the yardstick's (whole and held out: by default
 * `balanced` 2.0.0, the shipped default before its recalibration, whose "5.5 %" the shoppers goal
 * quotes; --yardstick '' leaves it out); the funded loans' realised default against the
 * population's (with n), the idle share while requests arrived, the paid data bought (USD, whole
 * recording and held out: cashflow's provider B scores), and calibration (mean predicted
 * against realised default, Brier against a constant guess) on the whole recording and on its
 * second half; on LendingClub, loans funded by grade. Then one verdict line per strategy against
 * the issue's goals (shipped-defaults-verdict.ts). No risk caps, as an outside evaluator runs it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultBalance, drawSeeds, type PreparedRecording } from '../src/backtest/index.js';
import { loadStrategyFile } from '../src/engine/index.js';
import type { HistoryRateMode, ScoreLinkName } from '../src/sandbox/index.js';
import type { LearnedLevelCheck } from '../src/backtest/calibration/learned-level-check.js';
import { costPlusTwin, type MoonshotFigure } from './reference-strategies.js';
import { worldFigures, type CalibrationFigure, type Judged, type RunFigure } from './shipped-defaults-figures.js';
import { verdictLine, type JudgedWorld } from './shipped-defaults-verdict.js';
import { LENDING_CLUB, worldRecording, worldSpecs } from './shipped-defaults-worlds.js';

const { values } = parseArgs({
  options: {
    strategy: { type: 'string', default: 'strategies/balanced.yaml,strategies/conservative.yaml,strategies/cashflow.yaml' },
    worlds: { type: 'string', default: `shoppers,classic,urgent,${LENDING_CLUB}` },
    seeds: { type: 'string', default: '1,2' },
    scales: { type: 'string', default: '1,0.4,0.7,1.5' },
    links: { type: 'string', default: 'bank-led,peaked-middle' },
    histories: { type: 'string', default: 'market' },
    requests: { type: 'string', default: '5000' },
    days: { type: 'string', default: '150' },
    balance: { type: 'string', default: '100000' },
    'lending-club-balance': { type: 'string', default: 'fit' },
    draws: { type: 'string', default: '1' },
    yardstick: { type: 'string', default: 'test/fixtures/balanced-2.0.0.yaml' },
  },
});
const list = (text: string): string[] => text.split(',').filter((item) => item !== '');
const requests = Number(values.requests);
const days = Number(values.days);
const draws = drawSeeds(1, Number(values.draws));
const sandboxBalanceCents = Math.round(Number(values.balance) * 100);
/**
 * LendingClub's loans average about 15,000 USD, fifteen times the sandbox's: 100,000 USD funds
 * six of them and the figures would be about six loans. By default ('fit') its balance is the
 * backtest's own rule, 100 times the average loan (docs/backtesting.md).
 */
const lendingClubBalanceCents = (recording: PreparedRecording): number =>
  values['lending-club-balance'] === 'fit' ? defaultBalance(recording).cents : Math.round(Number(values['lending-club-balance']) * 100);
const specs = worldSpecs({
  worlds: list(values.worlds),
  seeds: list(values.seeds).map(Number),
  scales: list(values.scales).map(Number),
  links: list(values.links) as ScoreLinkName[],
  histories: list(values.histories) as HistoryRateMode[],
});
const judged: Judged[] = await Promise.all(
  list(values.strategy).map(async (file) => ({
    name: basename(file, '.yaml'),
    strategy: await loadStrategyFile(file),
    twin: costPlusTwin(file),
  })),
);
const naive = await loadStrategyFile('strategies/examples/naive.yaml');
const yardstick = values.yardstick === '' ? undefined : await loadStrategyFile(values.yardstick);

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const run = (figure: RunFigure): string => `${pct(figure.net)} (${figure.funded})`;
const usd = (cents: number): string => (cents / 100).toFixed(0);
const calibration = (c: CalibrationFigure): string =>
  c.n === 0 ? '- (n 0)' : `${pct(c.predicted)} / ${pct(c.realised)}, ${c.brier.toFixed(4)} / ${c.constantBrier.toFixed(4)} (n ${c.n})`;
const learned = (c: LearnedLevelCheck | undefined): string =>
  c === undefined ? '-' : c.n === 0 ? '- (n 0)' : `${pct(c.predicted)} / ${pct(c.prior)} / ${pct(c.realised)} (n ${c.n})`;
const moonshot = (m: MoonshotFigure): string =>
  'none' in m ? `n/a: ${m.none}` : `${run(m)} h ${m.hurdle}${m.level === '-' ? '' : `, level ${m.level}`}`;
const rate = (r: { rate: number | null; n: number }): string => `${r.rate === null ? '-' : pct(r.rate)} (n ${r.n})`;

const dir = mkdtempSync(join(tmpdir(), 'lendbot-shipped-defaults-'));
const results: JudgedWorld[] = [];
let lendingClubBalance: number | undefined;
const rows: string[][] = [];
const gradeRows: string[] = [];
try {
  for (const world of specs) {
    const { file, recording } = await worldRecording(world, dir, requests, days);
    const lendingClub = world.kind === LENDING_CLUB;
    const startingBalanceCents = lendingClub ? lendingClubBalanceCents(recording) : sandboxBalanceCents;
    if (lendingClub) lendingClubBalance = startingBalanceCents;
    const figures = await worldFigures(
      { recording, file, dir, lendingClub },
      judged,
      { naive, yardstick },
      { startingBalanceCents, recordDecisions: true },
      draws,
    );
    results.push({ world, figures });
    for (const s of figures.strategies) {
      rows.push([
        world.name,
        s.strategy,
        run(s.all),
        run(s.heldOut),
        `${run(s.twin.all)}, ${run(s.twin.heldOut)}`,
        `${run(figures.naive.all)}, ${run(figures.naive.heldOut)}`,
        figures.yardstick ? `${run(figures.yardstick.all)}, ${run(figures.yardstick.heldOut)}` : '-',
        `${run(figures.oracle)} h ${figures.oracle.hurdle}`,
        moonshot(s.moonshot),
        run(figures.trained),
        `${rate(s.fundedDefault)} vs ${rate(s.populationDefault)}`,
        `${pct(s.idle)}, ${pct(s.held)}`,
        `${usd(s.dataSpendCents.all)}, ${usd(s.dataSpendCents.heldOut)}`,
        calibration(s.calibration),
        calibration(s.secondHalf),
        learned(s.learnedLoans),
      ]);
      if (s.grades)
        gradeRows.push(
          `${world.name} | ${s.strategy} | ${Object.entries(s.grades)
            .map(([g, n]) => `${g} ${n}`)
            .join(', ')}`,
        );
    }
    console.error(`done ${world.name}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `${requests} requests a sandbox world over ${days} days, balance ${values.balance} USD; ` +
    (lendingClubBalance === undefined ? '' : `LendingClub: its 9,857 loans over the same days, balance ${lendingClubBalance / 100} USD; `) +
    `no caps; ${draws.length} draw(s)`,
);
console.log(
  'net: net annualized return on the balance (loans funded); held out: the last 30 % on a fresh balance; calibration: predicted / realised default, Brier / constant guess',
);
console.log(
  [
    'world',
    'strategy',
    'net, all',
    'net, held out',
    'cost-plus twin (all, held out)',
    'naive (all, held out)',
    `yardstick ${yardstick === undefined ? '(none)' : `${yardstick.name} ${yardstick.version}`} (all, held out)`,
    'oracle, all',
    'moonshot, all',
    'trained on first 70 %, held out',
    'funded default vs population',
    'idle, held by offers',
    'paid data USD (all, held out)',
    'calibration, all',
    'calibration, second half (a learned level: as priced in the replay)',
    'learned level, own 2nd-half loans: priced / prior / realised',
  ].join(' | '),
);
for (const row of rows) console.log(row.join(' | '));
if (gradeRows.length > 0) {
  console.log('\nLendingClub loans funded by grade (whole recording)');
  for (const row of gradeRows) console.log(row);
}
console.log('\nVerdict against issue 35 (every world it applies to)');
for (const { name } of judged) console.log(verdictLine(name, results));
