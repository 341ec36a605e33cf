/** Personal data at rest: bank memo text never reaches the file, and the file is owner-only. */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluate, loadStrategyFile } from '../../src/engine/index.js';
import { bankingDataSchema } from '../../src/domain/index.js';
import { openStore, REDACTED_TEXT } from '../../src/store/index.js';
import { bankingData, loanRequest } from '../engine/fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lendbot-pii-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;

describe('personal data at rest', () => {
  it('stores banking data without memo text and with account ids cut to four digits, features unchanged', async () => {
    const raw = bankingData();
    const transactions = raw.data_aggregation?.DepAcctTrns?.BankAcctTrnRec ?? [];
    expect(transactions.length).toBeGreaterThan(0);
    expect(transactions.some((transaction) => typeof transaction.Memo === 'string' && transaction.Memo !== REDACTED_TEXT)).toBe(true);

    const store = openStore(join(dir, 'lendbot.db'));
    store.purchases.record({ loanRequestId: 7, kind: 'banking_data', costCents: 0, boughtAtMs: 0, ok: true, payload: raw });
    const stored = bankingDataSchema.parse(JSON.parse(store.purchases.forRequest(7)[0]?.payloadJson ?? 'null'));
    store.close();

    const storedTransactions = stored.data_aggregation?.DepAcctTrns?.BankAcctTrnRec ?? [];
    expect(storedTransactions.map((transaction) => transaction.Memo)).toEqual(transactions.map(() => REDACTED_TEXT));
    expect(storedTransactions.map((transaction) => transaction.CurAmt)).toEqual(transactions.map((transaction) => transaction.CurAmt));
    expect(stored.data_aggregation?.DepAcctTrns?.FIAcctId?.AcctId).toBeLessThan(10_000);
    expect(stored.agg_90).toEqual(raw.agg_90);

    // What a strategy sees is the same from the stored copy as from the bank's answer.
    for (const name of ['balanced', 'cashflow', 'conservative']) {
      const strategy = await loadStrategyFile(fileURLToPath(new URL(`../../strategies/${name}.yaml`, import.meta.url)));
      expect(evaluate(loanRequest(), { bankingData: stored }, strategy).features).toEqual(
        evaluate(loanRequest(), { bankingData: raw }, strategy).features,
      );
    }
  });

  it('creates the database owner-only (file, -wal, -shm) in a folder of its own made 0700', () => {
    const path = join(dir, 'new', 'deeper', 'lendbot.db');
    const store = openStore(path);
    store.state.set('x', 'y', 0);
    expect(mode(path)).toBe(0o600);
    expect(mode(`${path}-wal`)).toBe(0o600);
    expect(mode(`${path}-shm`)).toBe(0o600);
    expect(mode(join(dir, 'new'))).toBe(0o700);
    expect(mode(join(dir, 'new', 'deeper'))).toBe(0o700);
    store.close();
  });

  it('tightens an existing database readable by others, and leaves a folder the user chose alone', () => {
    const chosen = join(dir, 'volume');
    mkdirSync(chosen, { mode: 0o755 });
    chmodSync(chosen, 0o755);
    const path = join(chosen, 'lendbot.db');
    writeFileSync(path, '');
    chmodSync(path, 0o644);
    const warnings: string[] = [];
    openStore(path, { onWarning: (message) => warnings.push(message) }).close();
    expect(warnings).toEqual([`${path} was open to other users (mode 0644); tightened to 0600, owner only (see docs/store.md)`]);
    expect(mode(path)).toBe(0o600);
    expect(mode(chosen)).toBe(0o755);
  });
});
