// Migration 8 on a file written by version 7: purchases kept, a strategy column (NULL for old rows)
// and subscription rows allowed, summed per strategy.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, schemaVersion } from '../../src/store/database.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { openStore } from '../../src/store/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('purchases at schema version 8', () => {
  it('keeps the rows of a version 7 file and adds the strategy and subscriptions', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lendbot-v8-'));
    dirs.push(dir);
    const path = join(dir, 'lendbot.db');
    const old = openDatabase(
      path,
      MIGRATIONS.filter((step) => step.version <= 7),
    );
    expect(schemaVersion(old)).toBe(7);
    old
      .prepare(
        `INSERT INTO purchases (loan_request_id, kind, provider, cost_cents, bought_at, ok) VALUES (7, 'provider', 'provider_b', 150, '2026-03-02T00:00:00.000Z', 1)`,
      )
      .run();
    expect(() =>
      old
        .prepare(
          `INSERT INTO purchases (loan_request_id, kind, provider, cost_cents, bought_at, ok) VALUES (7, 'subscription', 'provider_a', 20000, '2026-03-02T00:00:00.000Z', 1)`,
        )
        .run(),
    ).toThrow(/CHECK/);
    old.close();

    const store = openStore(path);
    try {
      expect(store.purchases.forRequest(7)).toEqual([
        expect.objectContaining({ kind: 'provider', provider: 'provider_b', costCents: 150, strategy: null }),
      ]);
      store.purchases.record({
        loanRequestId: 8,
        kind: 'subscription',
        provider: 'provider_a',
        strategy: 'paid',
        costCents: 20_000,
        boughtAtMs: Date.parse('2026-03-03T00:00:00Z'),
        ok: true,
      });
      const march = { fromMs: Date.parse('2026-03-01T00:00:00Z'), toMs: Date.parse('2026-04-01T00:00:00Z') };
      expect(store.purchases.spendCents(march)).toBe(20_150);
      expect(store.purchases.strategySpendCents({ strategy: 'paid', ...march })).toBe(20_000);
      expect(store.purchases.subscriptions(march).map((row) => [row.provider, row.strategy, row.costCents])).toEqual([
        ['provider_a', 'paid', 20_000],
      ]);
    } finally {
      store.close();
    }
  });
});
