/**
 * When the learned default level knows, and where the money went by then (figures printed, never
 * asserted):
 *
 *   node --import tsx bench/level-evidence.ts [--strategy strategies/balanced.yaml] [--worlds lending-club]
 *       [--seed 1] [--requests 3000] [--days 150] [--balance 100000] [--lending-club-balance fit]
 *
 * For each world (the recordings bench/shipped-defaults.ts writes, one seed at today's default
 * level), by tenth of the requests' span: the loans funded by band (LendingClub: its grade; a
 * sandbox world: the risk level), the requests the guard refused for want of money, and the
 * learned level at the tenth's last priced decision (its `price level uncertain` reason: the funded
 * loans and loan-months the level rests on, and that request's priced default and sd in log-odds). It shows whether
 * evidence arrives before the money is lent (issue 35: on LendingClub the cold start decides).
 * `--lending-club-balance` USD replaces LendingClub's fitted balance (100 × the average loan),
 * for instance a balance no request exhausts. No caps, one draw.
 */
import { parseArgs } from 'node:util';
import { runDraws } from '../src/backtest/index.js';
import { loadStrategyFile } from '../src/engine/index.js';
import { gradeOfCreditScoreRange } from './lending-club-mapping.js';
import { LENDING_CLUB, oneSeedWorlds } from './shipped-defaults-worlds.js';

const { values } = parseArgs({
  options: {
    strategy: { type: 'string', default: 'strategies/balanced.yaml' },
    worlds: { type: 'string', default: LENDING_CLUB },
    seed: { type: 'string', default: '1' },
    requests: { type: 'string', default: '3000' },
    days: { type: 'string', default: '150' },
    balance: { type: 'string', default: '100000' },
    'lending-club-balance': { type: 'string', default: 'fit' },
  },
});

const TENTHS = 10;
const LEVEL_REASON = /price level uncertain v\d+ \((\d+) loans, (\d+) loan-months\): default ([\d.]+), sd ([\d.]+)/;

interface Tenth {
  funded: Map<string, number>;
  refusedForMoney: number;
  /** The last priced decision's level reason in the tenth: loans, loan-months, default, sd. */
  level?: string;
}

const strategy = await loadStrategyFile(values.strategy);
for await (const { spec, recording, lendingClub, startingBalanceCents } of oneSeedWorlds(values)) {
  const { first } = runDraws(recording, [strategy], { startingBalanceCents, recordDecisions: true }, [1]);
  const bandOf = new Map<number, string>();
  for (const { line } of recording.entries) {
    const request = line.loan_request;
    bandOf.set(
      request.id,
      lendingClub ? (gradeOfCreditScoreRange(request.borrower.credit_score) ?? '?') : `risk ${request.borrower_card_color}`,
    );
  }
  const startMs = Date.parse(first.decisions[0]?.decided_at ?? '');
  const spanMs = Date.parse(first.decisions.at(-1)?.decided_at ?? '') - startMs;
  const tenthOf = (iso: string): number => Math.min(TENTHS - 1, Math.floor(((Date.parse(iso) - startMs) / spanMs) * TENTHS));
  const tenths: Tenth[] = Array.from({ length: TENTHS }, () => ({ funded: new Map(), refusedForMoney: 0 }));
  for (const decision of first.decisions) {
    const tenth = tenths[tenthOf(decision.decided_at)];
    if (tenth === undefined) continue;
    if (decision.guard_code === 'insufficient_balance') tenth.refusedForMoney += 1;
    const level = decision.reasons.map((reason) => LEVEL_REASON.exec(reason)).find((found) => found !== null);
    if (level) tenth.level = `${level[1]} loans, ${level[2]} loan-months: ${(Number(level[3]) * 100).toFixed(1)} %, sd ${level[4]}`;
  }
  const bands = new Set<string>();
  for (const loan of first.loans) {
    const band = bandOf.get(loan.loanRequestId) ?? '?';
    bands.add(band);
    const tenth = tenths[tenthOf(loan.fundedAt)];
    if (tenth) tenth.funded.set(band, (tenth.funded.get(band) ?? 0) + 1);
  }
  const order = [...bands].sort();
  console.log(
    `\n${spec.name}: net ${(first.summary.netAnnualizedReturn * 100).toFixed(1)} %, ${first.loans.length} loans, balance ${(startingBalanceCents / 100).toFixed(0)} USD`,
  );
  console.log(`tenth | funded by band (${order.join(' ')}) | refused for want of money | learned level at the tenth's last priced request`);
  tenths.forEach((tenth, index) =>
    console.log(
      `${index + 1} | ${order.map((band) => tenth.funded.get(band) ?? 0).join(' ')} | ${tenth.refusedForMoney} | ${tenth.level ?? '-'}`,
    ),
  );
}
