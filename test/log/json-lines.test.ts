// Off a terminal the daemon's JSON lines keep their messages, levels and fields (log processors
// read them); the plain words of a terminal are made from those same records, never logged.
import { afterEach, describe, expect, it } from 'vitest';
import { terminalText } from '../../src/log/terminal-lines.js';
import { startDaemonHarness, waitFor, type DaemonHarness } from '../daemon/daemon-harness.js';

let h: DaemonHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const keys = (line: Record<string, unknown> | undefined): string[] => Object.keys(line ?? {}).sort();
const BASE = ['level', 'time', 'app', 'component', 'msg'];

describe('the JSON log lines of a decision', () => {
  it('keep their messages, levels and fields; the terminal words come from them', async () => {
    h = await startDaemonHarness();
    const harness = h;
    // Risk level 1 is offered; risk level 3 (friends) is refused by the guard's default levels.
    const offered = harness.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, competitorOffers: 0 });
    const refused = harness.sandbox.control.createLoanRequest({ svcColor: 3, maxInterestRate: 0.6, competitorOffers: 0 });
    await harness.sandbox.control.flushWebhooks();
    await waitFor(() => harness.store.decisions.has(offered.id) && harness.store.decisions.has(refused.id), 'both decisions');

    const line = (msg: string, id?: number) =>
      harness.logs.find((entry) => entry.msg === msg && (id === undefined || entry.loanRequestId === id));
    const received = harness.logs.filter((entry) => entry.msg === 'webhook received');
    expect(received).toHaveLength(2);
    expect(received.map(keys)).toEqual([...Array(2)].map(() => [...BASE, 'layout', 'outcome', 'webhookUuid'].sort()));
    expect(received.every((entry) => entry.level === 30)).toBe(true);

    const offer = line('decided: offer', offered.id);
    const skip = line('decided: skip', refused.id);
    // Every field the decision lines had, with the request's amount and risk level added after, and
    // the reasons' values beside their texts (what a terminal words them from, never the texts).
    const decisionKeys = [
      ...BASE,
      'loanRequestId',
      'source',
      'action',
      'rate',
      'strategy',
      'reasons',
      'reasonValues',
      'dryRun',
      'totalAmount',
      'riskLevel',
    ].sort();
    expect(keys(offer)).toEqual(decisionKeys);
    expect(keys(skip)).toEqual(decisionKeys);
    expect(offer).toMatchObject({
      level: 30,
      component: 'pipeline',
      action: 'offer',
      source: 'webhook',
      strategy: 'offer-all',
      dryRun: false,
      riskLevel: 1,
    });
    expect(skip).toMatchObject({ level: 30, component: 'pipeline', action: 'skip', riskLevel: 3 });
    expect(skip?.reasons).toContain('guard risk level 3 (friends) not allowed (allowed 0, 1, 2)');
    expect(skip?.reasonValues).toContainEqual({
      code: 'guard',
      guardCode: 'risk_level_not_allowed',
      level: '3',
      name: 'friends',
      allowed: '0, 1, 2',
    });
    expect(keys(line('offer placed', offered.id))).toEqual([...BASE, 'loanRequestId', 'offerId', 'rate', 'automateFund'].sort());

    // Nothing for terminals is written as JSON: no words, no summary.
    expect(harness.logs.filter((entry) => entry.msg === 'summary')).toEqual([]);
    expect(harness.logs.filter((entry) => typeof entry.msg === 'string' && /^(offer|skip) +#/.test(entry.msg))).toEqual([]);

    const amount = (total: string) => `$${Number(total).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    expect(terminalText(offer!)).toBe(
      `offer  #${offered.id}  ${amount(offered.total_amount)} at ${Number(((offer!.rate as number) * 100).toFixed(2))} %  (offer-all, risk medium)`,
    );
    expect(terminalText(skip!)).toBe(`skip   #${refused.id}  risk level friends is not allowed (allowed: low, medium, high)`);
  });
});
