/**
 * A replay's shortcuts in computing features must give the values a fresh computation gives:
 * a request's later rounds (after buying data) copy its request-only features instead of parsing
 * the credit score text and the amounts again, and amounts are parsed by a fast path for the
 * common form.
 */
import { describe, expect, it } from 'vitest';
import { FEATURES, type Enrichment } from '../../src/engine/index.js';
import { FeatureTable } from '../../src/engine/compile/feature-table.js';
import { parseCents } from '../../src/domain/index.js';
import { bankingData, historyItem, loanRequest, providerA, providerB } from './fixtures.js';

/** A table with a slot for every feature of the catalogue. */
function fullTable(): FeatureTable {
  const table = new FeatureTable();
  for (const feature of FEATURES) table.slot(feature.name);
  return table;
}

/** parseCents as it was before the fast path: the regular expression alone. */
function referenceCents(text: string): number {
  const match = /^([+-])?(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new RangeError(`not a decimal amount: ${JSON.stringify(text)}`);
  const [, sign, whole = '0', fraction = ''] = match;
  const thousandths = Number(whole) * 1000 + Number((fraction + '000').slice(0, 3));
  let cents = Math.floor(thousandths / 10);
  if (thousandths % 10 >= 5) cents += 1;
  if (!Number.isSafeInteger(cents)) throw new RangeError(`amount out of range: ${text}`);
  return sign === '-' ? -cents : cents;
}

function outcome(parse: (text: string) => number, text: string): string {
  try {
    const cents = parse(text);
    return Object.is(cents, -0) ? '-0' : String(cents);
  } catch (error) {
    return `throws ${(error as Error).message}`;
  }
}

describe('features computed again for later rounds', () => {
  const rounds: Array<[string, Enrichment]> = [
    ['banking data', { bankingData: bankingData() }],
    ['history', { borrowerHistory: [historyItem(), historyItem('900.00', '0.1800')] }],
    ['providers', { providerResults: { first: providerA(700), second: providerB(71) } }],
    ['banking data and history', { bankingData: bankingData({}, '95.00'), borrowerHistory: [historyItem()] }],
  ];

  it.each(rounds)('equal a fresh computation after %s', (_name, enrichment) => {
    const request = loanRequest({ borrower: { credit_score: '700-740' }, loan_amount: '1234.56', total_amount: '1290.06' });
    const reused = fullTable();
    const first = reused.valuesFor(request, {});
    const again = reused.valuesFor(request, enrichment);
    const fresh = fullTable().valuesFor(request, enrichment);
    expect(again).not.toBe(first);
    expect(reused.record(again.values)).toEqual(fullTable().record(fresh.values));
    expect(again.source.loanAmountCents).toBe(123_456);
    expect(again.source.totalAmountCents).toBe(129_006);
    // The data-dependent features did change with the data (the test would not notice otherwise).
    if (enrichment.bankingData !== undefined) expect(again.values).not.toEqual(first.values);
  });

  it('reads each request its own credit score range, one after another', () => {
    const table = fullTable();
    const texts = ['650-700', '650-700', '800+', '<580', 'unknown', '720', '650-700'];
    for (const text of texts) {
      const request = loanRequest({ borrower: { credit_score: text } });
      expect(table.record(table.valuesFor(request, {}).values)).toEqual(fullTable().record(fullTable().valuesFor(request, {}).values));
    }
    const mid = (text: string | null): unknown => {
      const values = fullTable().valuesFor(loanRequest({ borrower: { credit_score: text } }), {}).values;
      return fullTable().record(values)['credit_score_mid'];
    };
    expect([mid('800+'), mid('<580'), mid(null), mid('650-700')]).toEqual([825, 440, null, 675]);
  });
});

describe('parseCents fast path', () => {
  it('gives what the regular expression gives, including its errors', () => {
    const texts = [
      '0',
      '0.00',
      '-0.00',
      '12',
      '1250.00',
      '-35.5',
      '0.005',
      '-0.005',
      '0.004',
      '12.345678',
      '00012.10',
      '999999999999.999',
      '9999999999999.99',
    ];
    texts.push('12.', '.5', '-', '', ' 12.00', '12.00 ', '+3.50', '1e3', '1,000.00', '12.3.4', '--1', 'abc', '99999999999999999999.00');
    let seed = 7;
    const random = (): number => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let index = 0; index < 5_000; index += 1) {
      const whole = String(Math.floor(random() * 10 ** Math.floor(random() * 14)));
      const fraction = String(Math.floor(random() * 100_000)).slice(0, Math.floor(random() * 6));
      texts.push(`${random() < 0.3 ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`);
    }
    for (const text of texts) expect(outcome(parseCents, text), JSON.stringify(text)).toBe(outcome(referenceCents, text));
  });
});
