// Challengers in shadow against the sandbox: a daemon with live strategies (offer-all, and
// b-buyer, which buys provider B about risk level 1) and two challengers (shadow-cheap, which
// needs nothing, and shadow-b-wanter, which wants B everywhere). The challengers' would-be offers
// are recorded; the purchases table and the offers sent are the same as without them; a need the
// live decision did not buy is recorded as "would have needed", never bought.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { MarketplaceClient } from '../../src/service/index.js';
import { databaseOf } from '../../src/store/index.js';
import { createShadowDecisionsRepository } from '../../src/store/shadow-decisions-repository.js';
import { runCli } from '../cli/run-cli.js';
import { OFFER_ALL, startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

const B_BUYER = fileURLToPath(new URL('./fixtures/b-buyer.yaml', import.meta.url));
const SHADOW_CHEAP = fileURLToPath(new URL('./fixtures/shadow-cheap.yaml', import.meta.url));
const SHADOW_B = fileURLToPath(new URL('./fixtures/shadow-b-wanter.yaml', import.meta.url));
const RISK_LEVELS = [0, 1, 2, 1, 0];

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The same requests, one poll each, through a daemon with `strategyFiles`. */
async function run(strategyFiles: string[]) {
  let offersSent = 0;
  const wrapClient = (client: MarketplaceClient): MarketplaceClient =>
    new Proxy(client, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (key === 'makeOffer' && typeof value === 'function') {
          return (...args: unknown[]) => {
            offersSent++;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  harness = await startDaemonHarness({
    strategyFiles,
    sandbox: { startTime: '2026-03-10T12:00:00Z', arrivalsPerHour: 0 },
    balanceCents: 10_000_000,
    wrapClient,
  });
  const h = harness;
  h.sandbox.control.setFaults({ dropWebhookRate: 1 });
  const ids: number[] = [];
  for (const svcColor of RISK_LEVELS) {
    ids.push(h.sandbox.control.createLoanRequest({ svcColor, hasBankingData: true, competitorOffers: 0 }).id);
    await h.daemon.poller.poll();
    await h.daemon.pipeline.idle();
  }
  const db = databaseOf(h.store);
  const purchases = db
    .prepare('SELECT loan_request_id, kind, provider, strategy, cost_cents, ok FROM purchases ORDER BY loan_request_id, kind, provider')
    .all();
  const decisions = ids.map((id) => {
    const decision = h.store.decisions.get(id);
    return { id, strategy: decision?.strategy, action: decision?.action, rate: decision?.rate };
  });
  const shadows = createShadowDecisionsRepository(db);
  const result = {
    ids,
    purchases,
    decisions,
    offersSent,
    offerRows: (db.prepare('SELECT COUNT(*) AS n FROM offers').get() as { n: number }).n,
    shadowRows: ids.map((id) => shadows.forRequest(id)),
    comparison: shadows.compare(),
    report: await runCli(['shadow', 'report', '--db', join(h.dir, 'lendbot.db')]),
    reportJson: await runCli(['shadow', 'report', '--json', '--db', join(h.dir, 'lendbot.db')]),
  };
  await h.close();
  harness = undefined;
  return result;
}

describe('shadow strategies against the sandbox', () => {
  it('records what each challenger would have offered, buys and sends nothing more', async () => {
    const without = await run([OFFER_ALL, B_BUYER]);
    const withShadows = await run([OFFER_ALL, B_BUYER, SHADOW_CHEAP, SHADOW_B]);

    // Bought once: the purchases table has the same rows; the same live decisions and offers.
    expect(without.purchases.length).toBeGreaterThan(0);
    expect(withShadows.purchases).toEqual(without.purchases);
    expect(withShadows.decisions).toEqual(without.decisions);
    expect(without.offersSent).toBeGreaterThan(0);
    expect(withShadows.offersSent).toBe(without.offersSent);
    expect(withShadows.offerRows).toBe(without.offerRows);
    expect(without.shadowRows.flat()).toEqual([]);

    // Every request has one row per challenger.
    for (const rows of withShadows.shadowRows) expect(rows.map((row) => row.strategy)).toEqual(['shadow-b-wanter', 'shadow-cheap']);
    // shadow-cheap offers below the live rate wherever the live strategies offered.
    withShadows.ids.forEach((id, index) => {
      const live = withShadows.decisions[index];
      const cheap = withShadows.shadowRows[index]?.find((row) => row.strategy === 'shadow-cheap');
      expect(cheap?.needed).toEqual([]);
      if (live?.action === 'offer' && cheap?.action === 'offer') expect(cheap.rate).toBeLessThan(live.rate ?? 0);
    });
    // shadow-b-wanter got provider B where b-buyer bought it (risk level 1), else would have needed it.
    RISK_LEVELS.forEach((level, index) => {
      const wanter = withShadows.shadowRows[index]?.find((row) => row.strategy === 'shadow-b-wanter');
      if (level === 1) expect(wanter?.needed).toEqual([]);
      else {
        expect(wanter?.needed).toEqual(['provider_b']);
        expect(wanter?.reasons).toContain('would have needed provider_b (not bought by the live decision)');
      }
    });

    const cheap = withShadows.comparison.find((row) => row.strategy === 'shadow-cheap');
    expect(cheap).toMatchObject({ seen: RISK_LEVELS.length, neededData: 0 });
    expect(cheap?.wouldOffer).toBeGreaterThan(0);
    expect(cheap?.overlap).toBeGreaterThan(0);
    expect(cheap?.overlap).toBeLessThanOrEqual(cheap?.liveOffers ?? 0);
    const wanter = withShadows.comparison.find((row) => row.strategy === 'shadow-b-wanter');
    expect(wanter?.neededData).toBe(RISK_LEVELS.filter((level) => level !== 1).length);

    // lendbot shadow report: each challenger, the real and the modelled said apart.
    expect(without.report.stdout).toMatch(/^no shadow decisions recorded/);
    const { stdout, code } = withShadows.report;
    expect(code).toBe(0);
    expect(stdout).toContain('shadow-cheap\n  requests seen        5');
    expect(stdout).toMatch(new RegExp(`would offer +${cheap?.wouldOffer} at \\d+\\.\\d %`));
    expect(stdout).toContain('(market response, not an outcome)');
    expect(stdout).toContain('would have needed    data the live decision had not bought on 3 requests');
    const json = (JSON.parse(withShadows.reportJson.stdout) as { shadow: Array<{ strategy: string; would_offer: number }> }).shadow;
    expect(json.map((row) => [row.strategy, row.would_offer])).toEqual(withShadows.comparison.map((row) => [row.strategy, row.wouldOffer]));
  });

  it('counts the live offer a borrower took as the real outcome, the rest as modelled', async () => {
    harness = await startDaemonHarness({ strategyFiles: [OFFER_ALL, SHADOW_CHEAP], sandbox: { arrivalsPerHour: 0 } });
    const h = harness;
    h.sandbox.control.setFaults({ dropWebhookRate: 1 });
    const decide = { svcColor: 1, maxInterestRate: 0.6, decisionDelayMs: 2 * 3_600_000 };
    const taken = h.sandbox.control.createLoanRequest({ ...decide, competitorOffers: 0 });
    await h.daemon.poller.poll();
    const walkedAway = h.sandbox.control.createLoanRequest({ ...decide, competitorOffers: 0, takeUp: 0 });
    await h.daemon.poller.poll();
    await h.daemon.pipeline.idle();
    h.sandbox.control.advance(3 * 3_600_000);
    await h.daemon.runJob('sync');
    const shadows = createShadowDecisionsRepository(databaseOf(h.store));
    expect(shadows.forRequest(taken.id).map((row) => row.action)).toEqual(['offer']);
    expect(shadows.forRequest(walkedAway.id).map((row) => row.action)).toEqual(['offer']);
    // The borrower took the live offer on one request; the challenger's lower rate would have won it too.
    const [cheap] = shadows.compare();
    expect(cheap).toMatchObject({
      strategy: 'shadow-cheap',
      seen: 2,
      overlap: 2,
      liveFunded: 1,
      liveFundedAtOrBelow: 1,
      modelledOffers: 1,
    });
    const report = await runCli(['shadow', 'report', '--db', join(h.dir, 'lendbot.db')]);
    expect(report.stdout).toContain(
      "the live offer was accepted on 1 request the challenger offered on; its rate was at or below the borrower's on 1",
    );
    expect(report.stdout).toMatch(
      /modelled +\d\.\d expected acceptances of its other 1 would-be offer \(market response, not an outcome\)/,
    );
  });

  it('decides nothing, and says why, when every strategy is a challenger', async () => {
    harness = await startDaemonHarness({ strategyFiles: [SHADOW_CHEAP], sandbox: { arrivalsPerHour: 0 } });
    const h = harness;
    h.sandbox.control.setFaults({ dropWebhookRate: 1 });
    const request = h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    // The poll job fails with the reason (the scheduler logs it); the request stays undecided.
    await expect(h.daemon.poller.poll()).rejects.toThrow('every active strategy is marked shadow: true; at least one must decide live');
    await h.daemon.pipeline.idle();
    expect(h.store.decisions.get(request.id)).toBeUndefined();
  });
});
