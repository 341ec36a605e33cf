/**
 * How fast the strategy engine decides: evaluations per second for each example strategy on a
 * varied set of requests, with and without banking data, plus compile (withParams) cost.
 *   node --import tsx bench/evaluate.ts [evaluations per strategy, default 200000]
 */
import { fileURLToPath } from 'node:url';
import { decideSync, evaluate, loadStrategyFile, type DataSource, type Enrichment, type SpendLedger } from '../src/engine/index.js';
import type { LoanRequest } from '../src/domain/index.js';
import { bankingData, loanRequest, providerB } from '../test/engine/fixtures.js';

const count = Number(process.argv[2] ?? 200_000);

// A spread of requests so branches (filters failing, offers, skips at price) all get exercised.
const requests: LoanRequest[] = [];
for (let index = 0; index < 64; index += 1) {
  requests.push(
    loanRequest({
      id: 10_000 + index,
      borrower_card_color: index % 4,
      loan_amount: `${500 + index * 75}.00`,
      total_amount: `${550 + index * 75}.00`,
      loan_terms: 6 + (index % 4) * 6,
      max_interest_rate: 0.2 + (index % 7) * 0.1,
      borrower: { svc_color: index % 4, credit_score: `${560 + (index % 8) * 30}-${590 + (index % 8) * 30}`, hard_inquiries: index % 5 },
    }),
  );
}
const enrichments: Enrichment[] = [
  {},
  { bankingData: bankingData() },
  { bankingData: bankingData({ negative_balance_count: 5 }), providerResults: { provider_b: providerB(55) } },
];

// The decide step over a recording that holds nothing more, with no budget spent.
const nothingToBuy: DataSource<true> = {
  bankingData: () => ({ ok: false, detail: 'not in recording' }),
  providerResult: () => ({ ok: false, detail: 'not in recording' }),
  borrowerHistory: () => ({ ok: false, detail: 'not in recording' }),
};
const noSpend: SpendLedger = { spentSince: () => 0, subscribedSince: () => true, record: () => undefined };

function time(label: string, runs: number, work: (index: number) => void): void {
  for (let index = 0; index < Math.min(runs, 20_000); index += 1) work(index); // warm up the JIT
  const start = process.hrtime.bigint();
  for (let index = 0; index < runs; index += 1) work(index);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const perSecond = Math.round(runs / seconds);
  console.log(`${label.padEnd(44)} ${perSecond.toLocaleString('en-US').padStart(12)} /s  ${((seconds / runs) * 1e6).toFixed(2)} us each`);
}

for (const name of ['conservative', 'balanced', 'cashflow']) {
  const strategy = await loadStrategyFile(fileURLToPath(new URL(`../strategies/${name}.yaml`, import.meta.url)));
  const actions: Record<string, number> = {};
  time(`${name}: evaluate`, count, (index) => {
    const decision = evaluate(
      requests[index % requests.length] as LoanRequest,
      enrichments[index % enrichments.length] as Enrichment,
      strategy,
    );
    actions[decision.action] = (actions[decision.action] ?? 0) + 1;
  });
  time(`${name}: decide step (replay, nothing to buy)`, Math.round(count / 2), (index) => {
    decideSync(
      requests[index % requests.length] as LoanRequest,
      { strategies: [strategy], nowMs: 0, ledger: noSpend },
      nothingToBuy,
      () => ({ allowed: true }),
      {
        ...(enrichments[index % enrichments.length] as Enrichment),
      },
    );
  });
  const first = Object.keys(strategy.params)[0];
  const firstValue = first === undefined ? 0 : (strategy.params[first] ?? 0);
  time(`${name}: withParams (recompile)`, Math.round(count / 20), () => {
    if (first !== undefined) strategy.withParams({ [first]: firstValue });
  });
  console.log(`  actions over the evaluate run: ${JSON.stringify(actions)}`);
}
