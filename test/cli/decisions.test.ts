/** `lendbot decisions` on a real SQLite file: amounts, risk levels, outcomes, sources, --limit and --id. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loanSchema, offerSchema } from '../../src/domain/index.js';
import type { Store } from '../../src/store/index.js';
import { HOUR, T0, loanRequest, tempStore } from '../store/fixtures.js';
import { runCli } from './run-cli.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';

let h: ReturnType<typeof tempStore>;
/** An offer's reasons as the engine writes them (issue 36: these tokens were what a lender read). */
const OFFER_REASONS = [
  'score probability 0.78',
  'price expected_profit 0.228: P(accept) 0.35 × profit 35.26 USD = 12.34 USD; break-even 0.1',
];
const OFFER_WORDS = 'Chance of full repayment 78 %; offered 22.8 %: 35 % chance of acceptance, expected profit $12.34 (break-even 10 %).';
let config: string;

function serviceOffer(id: number) {
  return offerSchema.parse({ id, offered_interest: 0.228, offer_status: 'pending', automate_fund: true, created: '2026-03-10T12:00:01Z' });
}

/** Request `id`, seen and decided `hour` hours after T0; an offer decision gets an offer row placed at `offeredAtMs`. */
function decide(store: Store, id: number, hour: number, action: 'offer' | 'skip', offeredAtMs = T0 + hour * HOUR): number | undefined {
  const request = loanRequest({ id, riskLevel: id % 3, totalAmount: `${id}.50` });
  store.requests.markSeen(request, 'poll', T0 + hour * HOUR);
  store.decisions.record({
    loanRequestId: id,
    strategy: 'balanced',
    contentHash: 'abcdef0123456789',
    features: { credit_score: 675 },
    probability: 0.93,
    rate: action === 'offer' ? 0.228 : null,
    action,
    reasons: storedReasons(action === 'offer' ? OFFER_REASONS : ['filter credit_score < 600']),
    dryRun: false,
    decidedAtMs: T0 + hour * HOUR,
  });
  if (action === 'skip') return undefined;
  const created = store.offers.createIntent({ request, rate: 0.228, automateFund: true, dryRun: false, atMs: offeredAtMs });
  if (!created.created) throw new Error('intent refused');
  store.offers.markPlaced(created.offer.id, serviceOffer(9000 + id), offeredAtMs);
  return created.offer.id;
}

function loan(id: number, loanRequestId: number, status: string) {
  return loanSchema.parse({
    id,
    loan_request_id: loanRequestId,
    loan_amount: 500,
    interest_rate: 0.228,
    status,
    loan_balance: 120.25,
    borrower_card_color: 1,
  });
}

beforeEach(() => {
  h = tempStore();
  const { store } = h;
  decide(store, 101, 0, 'skip');
  decide(store, 102, 1, 'offer', Date.now()); // out now, unanswered
  decide(store, 103, 2, 'offer'); // out since March: past its expiry
  decide(store, 104, 3, 'offer');
  store.account.upsertLoans([loan(1, 104, 'funded')], 'current', T0);
  decide(store, 105, 4, 'offer');
  store.account.upsertLoans([loan(2, 105, 'completed')], 'completed', T0);
  decide(store, 106, 5, 'offer');
  store.account.upsertLoans([loan(3, 106, 'defaulted')], 'default', T0);
  const refused = decide(store, 107, 6, 'offer');
  if (refused !== undefined) store.offers.markRefused(refused, 'offer exceeds max_interest_rate', T0);
  store.decisions.recordAgent({
    loanRequestId: 108,
    source: 'agent:claude',
    action: 'skip',
    reasons: storedReasons(['agent: too many inquiries']),
    dryRun: false,
    decidedAtMs: T0 + 7 * HOUR,
  });
  store.close();
  config = join(h.path, '..', 'lendbot.yaml');
  writeFileSync(config, `db: ${h.path}\nrisk:\n  offer_expiry_hours: 48\n`);
});
afterEach(() => h.cleanup());

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('lendbot decisions', () => {
  it('gives each decision its amount, risk level, outcome and source, oldest first', async () => {
    const result = await runCli(['decisions', '--config', config, '--json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(lines(result.stdout).map((d) => [d.loan_request_id, d.amount_cents, d.risk_level, d.outcome, d.source])).toEqual([
      [101, 10_150, 2, 'skipped', 'strategies'],
      [102, 10_250, 0, 'placed', 'strategies'],
      [103, 10_350, 1, 'expired', 'strategies'],
      [104, 10_450, 2, 'funded', 'strategies'],
      [105, 10_550, 0, 'repaid', 'strategies'],
      [106, 10_650, 1, 'defaulted', 'strategies'],
      [107, 10_750, 2, 'refused', 'strategies'],
      // Never seen as a request, no offer: amount and risk unknown.
      [108, null, null, 'skipped', 'agent:claude'],
    ]);
  });

  it('--limit keeps the newest, still listed oldest first; the table shows the same', async () => {
    const json = await runCli(['decisions', '--config', config, '--json', '--limit', '3']);
    expect(lines(json.stdout).map((d) => d.loan_request_id)).toEqual([106, 107, 108]);
    const table = await runCli(['decisions', '--config', config, '--limit', '2', '--action', 'offer']);
    expect(table.code).toBe(0);
    const rows = table.stdout.split('\n');
    expect(rows[0]).toMatch(/^decided at +request +action +amount +risk +rate +outcome +decided by +why$/);
    expect(rows[1]).toBe(`2026-03-10T17:00:00       106  offer     $106.50  medium    22.80%  defaulted  balanced        ${OFFER_WORDS}`);
    expect(rows[2]).toContain('   107  offer     $107.50  high      22.80%  refused    balanced');
    // An offer is explained in a sentence, not the engine's tokens.
    expect(rows[2]).toContain(`balanced        ${OFFER_WORDS}`);
    expect(table.stdout).not.toMatch(/score probability|price expected_profit/);
    expect(rows[3]).toBe('2 decisions');
    // A skip says what decided it in plain words; --json keeps the machine reasons.
    const skips = await runCli(['decisions', '--config', config, '--action', 'skip']);
    expect(skips.stdout).toContain("credit score is under the strategy's minimum 600");
    expect(skips.stdout).not.toContain('filter credit_score < 600');
    const agent = await runCli(['decisions', '--config', config, '--limit', '1']);
    expect(agent.stdout.split('\n')[1]).toBe(
      '2026-03-10T19:00:00       108  skip            -  -              -  skipped    agent:claude    agent: too many inquiries',
    );
  });

  it('--id shows one decision in full, with its offer and loan', async () => {
    const text = await runCli(['decisions', '--config', config, '--id', '104']);
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toContain('request      104, $104.50, risk high\n');
    expect(text.stdout).toContain('decided by   strategy balanced (file abcdef012345)\n');
    expect(text.stdout).toContain('action       offer at 22.80%\n');
    expect(text.stdout).toContain('outcome      funded\n');
    expect(text.stdout).toContain(
      'offer        funded at 22.80%, $104.50, automate_fund, service offer 9104, created 2026-03-10T15:00:00.000Z',
    );
    expect(text.stdout).toContain('loan         1, current (funded), $500.00 at 22.80%, $120.25 still owed\n');
    expect(text.stdout).toContain(
      'reasons:\n  chance of full repayment 78 %\n  offered 22.8 %: 35 % chance of acceptance, expected profit $12.34 (break-even 10 %)\nfeatures:\n  credit_score: 675\n',
    );

    const json = await runCli(['decisions', '--config', config, '--id', '106', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      loan_request_id: 106,
      outcome: 'defaulted',
      features: { credit_score: 675 },
      offer: { state: 'funded', recorded_state: 'placed', service_offer_id: 9106, total_amount_cents: 10_650 },
      loan: { id: 3, list: 'default', status: 'defaulted', remaining_cents: 12_025 },
    });
  });

  it('says so when there is no decision for the id, and refuses --id with list filters', async () => {
    expect(await runCli(['decisions', '--config', config, '--id', '999'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'lendbot: no decision for loan request 999 in this database\n',
    });
    expect(await runCli(['decisions', '--config', config, '--id', '101', '--limit', '2'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'lendbot: --id shows one decision; leave out --since, --action and --limit\n',
    });
  });
});
