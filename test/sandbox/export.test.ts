import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecordingLine } from '../../src/recording/index.js';
import { exportSandboxRecording, ifFunded, runHeadlessMarket } from '../../src/sandbox/index.js';
import { tempDirForFile } from '../temp-dir.js';

const dir = tempDirForFile('lendbot-sandbox-export-');

describe('exportSandboxRecording', () => {
  it('writes one valid recording line per request, with data, scores and outcome', async () => {
    const file = join(dir, 'a.jsonl');
    const summary = await exportSandboxRecording(file, { seed: 5, requests: 300, providerNames: { a: 'acme', b: 'flow' } });
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(300);
    expect(summary.lines).toBe(300);
    const parsed = lines.map((text) => {
      const result = parseRecordingLine(text);
      if (!result.ok) throw new Error(result.message);
      return result.value;
    });
    const withData = parsed.filter((line) => line.data_aggs);
    expect(withData.length).toBeGreaterThan(250);
    for (const line of withData) expect(Object.keys(line.scores ?? {}).sort()).toEqual(['acme', 'flow']);
    const statuses = new Set(parsed.map((line) => line.outcome?.status));
    expect([...statuses].sort()).toEqual(['completed', 'default', 'unfunded']);
    for (const line of parsed) {
      const outcome = line.outcome;
      expect(outcome?.resolved_at).toBeDefined();
      if (outcome?.status === 'completed') expect(outcome.repaid_fraction).toBe(1);
      if (outcome?.status === 'default') expect(outcome.repaid_fraction).toBeLessThan(1);
      if (outcome?.funded_rate !== undefined) expect(outcome.funded_rate).toBeLessThanOrEqual(line.loan_request.max_interest_rate);
      // Nobody but competitors offers in a headless run, so the funded rate is the best competing one.
      if (outcome?.status !== 'unfunded') expect(outcome?.funded_rate).toBe(outcome?.best_competing_rate);
      expect(Date.parse(line.seen_at)).toBe(Date.parse(line.loan_request.created));
    }
    expect(Object.values(summary.byStatus).reduce((a, b) => a + b, 0)).toBe(300);
    expect(summary.shape).toBe('classic');
  });

  it('is deterministic for a seed and a shape; --transactions adds the raw bank data', async () => {
    await exportSandboxRecording(join(dir, 'b1.jsonl'), { seed: 9, requests: 50 });
    await exportSandboxRecording(join(dir, 'b2.jsonl'), { seed: 9, requests: 50 });
    expect(readFileSync(join(dir, 'b1.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'b2.jsonl'), 'utf8'));
    for (const shape of ['credit', 'burden', 'volatility']) {
      const first = await exportSandboxRecording(join(dir, `${shape}1.jsonl`), { seed: 9, requests: 300, shape });
      await exportSandboxRecording(join(dir, `${shape}2.jsonl`), { seed: 9, requests: 300, shape });
      expect(first.shape).toBe(shape);
      const text = readFileSync(join(dir, `${shape}1.jsonl`), 'utf8');
      expect(readFileSync(join(dir, `${shape}2.jsonl`), 'utf8')).toBe(text);
      expect(text).not.toBe(readFileSync(join(dir, 'b1.jsonl'), 'utf8'));
    }
    await exportSandboxRecording(join(dir, 'c.jsonl'), { seed: 9, requests: 5, includeTransactions: true });
    const first = JSON.parse(readFileSync(join(dir, 'c.jsonl'), 'utf8').split('\n')[0] ?? '{}') as {
      data_aggs?: { data_aggregation?: unknown };
    };
    expect(first.data_aggs?.data_aggregation).toBeDefined();
  });

  it('writes if_funded exactly for requests nobody funded that could have been funded, computed as a real loan repays', async () => {
    const file = join(dir, 'd.jsonl');
    await exportSandboxRecording(file, { seed: 13, requests: 600, shape: 'burden' });
    const market = runHeadlessMarket({ seed: 13, requests: 600, shape: 'burden' });
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((text) => {
        const result = parseRecordingLine(text);
        if (!result.ok) throw new Error(result.message);
        return result.value;
      });
    let counterfactual = 0;
    let walkedAway = 0;
    let madeAndMissed = 0;
    for (const line of lines) {
      const request = market.requests.get(line.loan_request.id);
      if (!request) throw new Error(`no request ${line.loan_request.id}`);
      const outcome = line.outcome;
      const fundable = request.status !== 'canceled' && request.borrower.hasFundingResource;
      const unfunded = outcome?.status === 'unfunded';
      expect(outcome?.if_funded !== undefined, `request ${request.id} (${request.status})`).toBe(unfunded && fundable);
      if (outcome?.if_funded) {
        counterfactual += 1;
        const defaults = request.truth.missedMonth !== null;
        expect(outcome.if_funded.status).toBe(defaults ? 'default' : 'completed');
        expect(outcome.if_funded.repaid_fraction).toBe(defaults ? ifFunded(request).repaid_fraction : 1);
        if (defaults) expect(outcome.if_funded.repaid_fraction).toBeLessThan(1);
        // The instalment first missed, so a backtest writes the loan off there (not after the recovery).
        expect(outcome.if_funded.missed_month).toBe(defaults ? request.truth.missedMonth : undefined);
      }
      // A borrower who walked away from a competing offer: the recording keeps that offer's rate.
      if (unfunded && request.refusedRate !== null && fundable) {
        walkedAway += 1;
        expect(outcome.best_competing_rate).toBe(request.refusedRate);
      }
      // On a loan that was made, the same arithmetic at its rate gives its repaid_fraction.
      const loan = request.loanId === null ? undefined : market.loanBook.loans.get(request.loanId);
      if (loan) expect(ifFunded(request, loan.rate).repaid_fraction).toBe(outcome?.repaid_fraction);
      const missed = outcome?.status === 'default' || outcome?.status === 'collection';
      if (missed) madeAndMissed += 1;
      expect(outcome?.missed_month, `request ${request.id} (${outcome?.status})`).toBe(missed ? request.truth.missedMonth : undefined);
    }
    expect(madeAndMissed).toBeGreaterThan(10);
    expect(counterfactual).toBeGreaterThan(100);
    expect(walkedAway).toBeGreaterThan(30);
    expect(lines.some((line) => line.outcome?.if_funded?.status === 'default')).toBe(true);
  });
});
