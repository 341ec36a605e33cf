/**
 * Free text bought about a borrower (bank memos, descriptions, payee names) never reaches the
 * database file, yet `lendbot record export` still writes a valid recording and every feature
 * computed from the stored copy equals the one computed from the bank's answer.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluate, FEATURES, loadStrategyFile, type FeatureValue } from '../../src/engine/index.js';
import { featureSource } from '../../src/engine/features/feature-source.js';
import type { Enrichment } from '../../src/engine/enrichment.js';
import { parseRecordingLine } from '../../src/recording/index.js';
import { bankingDataSchema, type BankingData, type LoanRequest } from '../../src/domain/index.js';
import { openStore, redactPersonalData, REDACTED_TEXT } from '../../src/store/index.js';
import { runCli } from '../cli/run-cli.js';
import { bankingData, loanRequest, providerA } from '../engine/fixtures.js';

/** Every feature of the catalogue, by name. */
function allFeatures(request: LoanRequest, enrichment: Enrichment): Record<string, FeatureValue> {
  const source = featureSource(request, enrichment);
  return Object.fromEntries(FEATURES.map((feature) => [feature.name, feature.compute(source)]));
}

const PERSONAL = ['JANE Q PUBLIC', '987654321', 'Jane Public', 'Landlord John Roe', 'rent for flat 4B'];

/** The bank's answer with personal data in its free text, as a real bank sends it. */
function bankAnswerWithPersonalData(): BankingData {
  const base = bankingData();
  return bankingDataSchema.parse({
    ...base,
    data_aggregation: {
      Status: { Severity: 'Info', StatusCode: 0, StatusDesc: 'Success' },
      DepAcctTrns: {
        FIAcctId: { AcctId: 123_456_789, AcctType: 'DDA', ExtAcctType: 'Checking' },
        BankAcctTrnRec: [
          {
            Memo: 'ZELLE FROM JANE Q PUBLIC ACCT 987654321',
            TrnID: 1,
            CurAmt: { Amt: 250, CurCode: 'USD' },
            TrnType: 'Credit',
            Category: 'Income',
            SubCategory: 'Transfer',
            PostedDt: '2026-11-02',
            CreatedOnDt: '2026-11-02T09:00:00-05:00',
            PayeeName: 'Jane Public',
          },
          {
            Memo: 'CHECK 1043',
            TrnID: 2,
            CurAmt: { Amt: 1200, CurCode: 'USD' },
            TrnType: 'Debit',
            Category: 'Home Expense',
            SubCategory: 'Rent',
            PostedDt: '2026-11-01',
            Description: 'rent for flat 4B',
            Payee: { Name: 'Landlord John Roe', AcctId: '0012-3456-7890' },
          },
        ],
        SelectionCriterion: { SelRangeDt: { StartDt: '2026-08-22', EndDt: '2026-11-20' } },
      },
    },
  });
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lendbot-redact-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('redacting a bought payload', () => {
  it('replaces free text by the marker and cuts account ids, keeping amounts, dates, types and categories', () => {
    const redacted = redactPersonalData(bankAnswerWithPersonalData()) as BankingData;
    expect(redacted.data_aggregation?.DepAcctTrns).toEqual({
      FIAcctId: { AcctId: 6789, AcctType: 'DDA', ExtAcctType: 'Checking' },
      BankAcctTrnRec: [
        {
          Memo: REDACTED_TEXT,
          TrnID: 1,
          CurAmt: { Amt: 250, CurCode: 'USD' },
          TrnType: 'Credit',
          Category: 'Income',
          SubCategory: 'Transfer',
          PostedDt: '2026-11-02',
          CreatedOnDt: '2026-11-02T09:00:00-05:00',
          PayeeName: REDACTED_TEXT,
        },
        {
          Memo: REDACTED_TEXT,
          TrnID: 2,
          CurAmt: { Amt: 1200, CurCode: 'USD' },
          TrnType: 'Debit',
          Category: 'Home Expense',
          SubCategory: 'Rent',
          PostedDt: '2026-11-01',
          Description: REDACTED_TEXT,
          Payee: { Name: REDACTED_TEXT, AcctId: '****-****-7890' },
        },
      ],
      SelectionCriterion: { SelRangeDt: { StartDt: '2026-08-22', EndDt: '2026-11-20' } },
    });
    // The provider's status and the bank's (an institution's) name are not about the borrower.
    expect(redacted.data_aggregation?.Status?.StatusDesc).toBe('Success');
    expect(redacted.borrower_bank_name_at_loan_request).toBe('First Example Bank');
    expect(redacted.agg_90).toEqual(bankingData().agg_90);
  });
});

describe('record export from a store holding redacted purchases', () => {
  it('writes no personal text to the file, exports a valid recording, and features are unchanged', async () => {
    const raw = bankAnswerWithPersonalData();
    const request = loanRequest();
    const db = join(dir, 'lendbot.db');
    const store = openStore(db);
    store.requests.markSeen(request, 'poll', Date.parse('2026-11-20T14:00:01Z'));
    store.purchases.record({
      loanRequestId: request.id,
      kind: 'banking_data',
      costCents: 0,
      boughtAtMs: Date.parse('2026-11-20T14:00:05Z'),
      ok: true,
      payload: raw,
    });
    store.purchases.record({
      loanRequestId: request.id,
      kind: 'provider',
      provider: 'provider_a',
      costCents: 50,
      boughtAtMs: Date.parse('2026-11-20T14:00:09Z'),
      ok: true,
      payload: providerA(),
    });
    store.close();

    // Closing checkpoints the WAL into the file: every byte lendbot keeps is in this folder.
    const written = readdirSync(dir)
      .map((name) => readFileSync(join(dir, name)).toString('latin1'))
      .join('\n');
    for (const text of PERSONAL) expect(written).not.toContain(text);

    const out = join(dir, 'recording.jsonl');
    const exported = await runCli(['record', 'export', '--db', db, '--out', out]);
    expect(exported).toEqual({ code: 0, stdout: '', stderr: `wrote 1 request to ${out}\n` });
    const text = readFileSync(out, 'utf8');
    for (const personal of PERSONAL) expect(text).not.toContain(personal);
    const parsed = parseRecordingLine(text.trim());
    if (!parsed.ok) throw new Error(parsed.message);
    const stored = parsed.value.data_aggs;
    if (stored === undefined) throw new Error('the recording line has no banking data');
    expect(stored.data_aggregation?.DepAcctTrns?.BankAcctTrnRec.map((transaction) => transaction.Memo)).toEqual([
      REDACTED_TEXT,
      REDACTED_TEXT,
    ]);
    expect(parsed.value.scores).toEqual({ provider_a: providerA() });

    const fromBank = allFeatures(request, { bankingData: raw, providerResults: { provider_a: providerA() } });
    const fromStore = allFeatures(parsed.value.loan_request, { bankingData: stored, providerResults: parsed.value.scores ?? {} });
    expect(Object.values(fromBank).filter((value) => value !== null).length).toBeGreaterThan(60);
    expect(fromStore).toEqual(fromBank);
    for (const name of ['balanced', 'cashflow', 'conservative']) {
      const strategy = await loadStrategyFile(fileURLToPath(new URL(`../../strategies/${name}.yaml`, import.meta.url)));
      const decideFromBank = evaluate(request, { bankingData: raw, providerResults: { provider_a: providerA() } }, strategy);
      const decideFromStore = evaluate(
        parsed.value.loan_request,
        { bankingData: stored, providerResults: parsed.value.scores ?? {} },
        strategy,
      );
      expect(decideFromStore).toEqual(decideFromBank);
    }
  });
});
