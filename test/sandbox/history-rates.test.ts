/**
 * The rates of a borrower's completed loans (src/sandbox/history-rates.ts): under `market` they are
 * what the world's lenders would have charged the borrower, so they move with the world's default
 * level and with the borrower's own risk; under `uniform` (files exported before issue 35) they are
 * the same whatever the world.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { generateLoanRequest } from '../../src/sandbox/borrower-generator.js';
import { borrowerHistoryView } from '../../src/sandbox/resource-views.js';
import { marketShape, shiftedShape, type WorldShift } from '../../src/sandbox/index.js';

const SEED = 3;
const dir = mkdtempSync(join(tmpdir(), 'lendbot-history-rates-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `lendbot sandbox export ARGS`, its stdout. */
async function exportCli(args: string[]): Promise<string> {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await buildProgram({ stdout, stderr: new PassThrough(), env: {} }).parseAsync(['node', 'lendbot', 'sandbox', 'export', ...args]);
  return out;
}

/**
 * sha256 of `lendbot sandbox export --seed 11 --requests 300 --shape shoppers --default-scale 1.5`
 * as every version before issue 35 wrote it (uniform history rates).
 */
const EARLIER_EXPORT_SHA256 = 'a18150976d676fb68149d9aaf86d91d79cfe2bcf10242cd36c5befcff9f5bee3';
const REQUESTS = 1500;

interface Item {
  lender: unknown;
  loan_amount: string;
  payment_terms: number;
  interest_rate: string;
}

/** Every history item of REQUESTS generated borrowers of `shape` shifted by `shift`, with the borrower's true default. */
function histories(shift: WorldShift, shape = 'shoppers'): Array<{ color: number; trueDefault: number; items: Item[] }> {
  const world = shiftedShape(marketShape(shape), shift);
  return Array.from({ length: REQUESTS }, (_, i) => {
    const request = generateLoanRequest(SEED, i + 1, Date.parse('2026-01-01T00:00:00Z'), {}, world);
    return {
      color: request.borrower.svcColor,
      trueDefault: 1 - request.truth.repayProbability,
      items: borrowerHistoryView(SEED, request, world) as unknown as Item[],
    };
  });
}

const meanRate = (rows: ReturnType<typeof histories>, keep: (row: ReturnType<typeof histories>[number]) => boolean): number => {
  const rates = rows.filter(keep).flatMap((row) => row.items.map((item) => Number(item.interest_rate)));
  expect(rates.length).toBeGreaterThan(50);
  return rates.reduce((sum, rate) => sum + rate, 0) / rates.length;
};

describe('sandbox history rates', () => {
  it('under market (the default) move with the default level; under uniform they do not move at all', () => {
    const market = [0.4, 1, 1.5].map((scale) => meanRate(histories({ defaultScale: scale }), (row) => row.color === 0));
    // Level 0 at odds x0.4, x1, x1.5: each riskier world's lenders charged more, by more than a point.
    expect(market[1]! - market[0]!).toBeGreaterThan(0.01);
    expect(market[2]! - market[1]!).toBeGreaterThan(0.01);
    const uniform = [0.4, 1, 1.5].map((scale) => histories({ defaultScale: scale, historyRates: 'uniform' }));
    expect(JSON.stringify(uniform[0])).not.toBe(JSON.stringify(histories({ defaultScale: 0.4 })));
    const itemsOf = (rows: ReturnType<typeof histories>): Item[] => rows.flatMap((row) => row.items);
    expect(JSON.stringify(itemsOf(uniform[1]!))).toBe(JSON.stringify(itemsOf(uniform[0]!)));
    expect(JSON.stringify(itemsOf(uniform[2]!))).toBe(JSON.stringify(itemsOf(uniform[0]!)));
  });

  it('under market follow the borrower: riskier borrowers of one risk level paid more before', () => {
    const rows = histories({});
    const safe = meanRate(rows, (row) => row.color === 1 && row.trueDefault < 0.15);
    const risky = meanRate(rows, (row) => row.color === 1 && row.trueDefault > 0.3);
    expect(risky - safe).toBeGreaterThan(0.05);
    const uniform = histories({ historyRates: 'uniform' });
    const uniformGap =
      meanRate(uniform, (row) => row.color === 1 && row.trueDefault > 0.3) -
      meanRate(uniform, (row) => row.color === 1 && row.trueDefault < 0.15);
    expect(Math.abs(uniformGap)).toBeLessThan(0.02);
  });

  it('changes only the rates: lender, amount and terms are the same items in either mode, within the maximum', () => {
    const market = histories({});
    const uniform = histories({ historyRates: 'uniform' });
    const without = (rows: ReturnType<typeof histories>): string =>
      JSON.stringify(rows.map((row) => row.items.map(({ interest_rate: _rate, ...rest }) => rest)));
    expect(without(market)).toBe(without(uniform));
    for (const row of market) for (const item of row.items) expect(Number(item.interest_rate)).toBeGreaterThanOrEqual(0.03);
  });

  it('--history-rates uniform writes the file earlier versions wrote, to the byte; the default prices as the market would', async () => {
    const args = (mode: string): string[] =>
      ['--seed', '11', '--requests', '300', '--shape', 'shoppers', '--default-scale', '1.5', '--out', join(dir, `${mode}.jsonl`)].concat(
        mode === 'default' ? [] : ['--history-rates', mode],
      );
    expect(await exportCli(args('uniform'))).toContain('market shape shoppers (default odds x1.5, history rates uniform), seed 11:');
    await exportCli(args('default'));
    const sha = (mode: string): string =>
      createHash('sha256')
        .update(readFileSync(join(dir, `${mode}.jsonl`)))
        .digest('hex');
    expect(sha('uniform')).toBe(EARLIER_EXPORT_SHA256);
    expect(sha('default')).not.toBe(EARLIER_EXPORT_SHA256);
    await expect(exportCli(['--history-rates', 'even', '--out', join(dir, 'x.jsonl')])).rejects.toMatchObject({
      message: '--history-rates must be market or uniform (got "even")',
      exitCode: 2,
    });
  });
});
