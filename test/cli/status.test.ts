import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempStore } from '../store/fixtures.js';
import { seedStatusData } from '../ops/status-fixtures.js';
import { runCli } from './run-cli.js';

let h: ReturnType<typeof tempStore>;
let config: string;
beforeEach(() => {
  h = tempStore();
  seedStatusData(h.store, { decisions: 30, nowMs: Date.now() });
  h.store.close();
  config = join(h.path, '..', 'lendbot.yaml');
  const strategy = resolve('strategies/balanced.yaml');
  writeFileSync(
    config,
    `strategies: [${strategy}, missing.yaml]\nrisk:\n  max_offers_per_day: 5\n  kill_switch_file: ${join(h.path, '..', 'STOP')}\n`,
  );
});
afterEach(() => h.cleanup());

describe('lendbot status', () => {
  it('prints the report as JSON, warning about a strategy it cannot load', async () => {
    const result = await runCli(['status', '--db', h.path, '--config', config, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('warning: strategy missing.yaml not loaded, its data budget is left out: missing.yaml: 1 problem\n');
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      scope: 'live',
      balance_cents: 330_000,
      reserved_cents: 83_000,
      free_cents: 247_000,
      // The default daily cap, half the capital: 3,300.00 balance + 1,100.00 lent out.
      offers_today: { offers: 2, amount_cents: 83_000, max_offers: 5, max_amount_cents: 220_000, max_amount_share: 0.5 },
      capital_cents: 440_000,
      loans_by_status: { collection: 1, completed: 1, current: 2 },
      inbox_depth: 2,
      kill_switch: { on: false, why: null },
    });
    const dataSpend = report.data_spend as { spent_cents: number; budgets: unknown };
    // The seeded purchases are all the balanced strategy's.
    expect(dataSpend.budgets).toEqual([
      { strategy: 'balanced', monthly_budget_cents: 0, spent_cents: dataSpend.spent_cents, market_source: 'default' },
    ]);
  });

  it('shows the kill switch file and prints lines for people', async () => {
    writeFileSync(join(h.path, '..', 'STOP'), '');
    const result = await runCli(['status', '--config', config], { LENDBOT_DB: h.path });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`\nkill switch        ON: file ${join(h.path, '..', 'STOP')} exists\n`);
    expect(result.stdout).toContain('\nloans              1 collection, 1 completed, 2 current\n');
  });

  it('refuses a database that does not exist, without creating it', async () => {
    const missing = join(h.path, '..', 'nope.db');
    const result = await runCli(['status', '--db', missing, '--config', config]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `lendbot: no database at ${missing} (set --db or LENDBOT_DB)\n` });
  });
});
