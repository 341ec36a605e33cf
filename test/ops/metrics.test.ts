import fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createMarketplaceClient, DEFAULT_RETRY, ServiceError } from '../../src/service/index.js';
import { instrumentClient, instrumentPipeline } from '../../src/ops/instrument.js';
import { createMetrics } from '../../src/ops/metrics.js';
import { registerMetricsRoute } from '../../src/ops/ops-routes.js';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/index.js';
import { startDaemonHarness, waitFor, type DaemonHarness } from '../daemon/daemon-harness.js';
import { tempStore } from '../store/fixtures.js';
import { seedStatusData } from './status-fixtures.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** The value of one series line in Prometheus text, e.g. `lendbot_offers_total{outcome="placed"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics', () => {
  it('serves every named series on GET /metrics in Prometheus text format, gauges from the store', async () => {
    const h = tempStore();
    seedStatusData(h.store, { decisions: 30, nowMs: Date.parse('2026-03-10T12:00:00Z') });
    const metrics = createMetrics({ processMetrics: false });
    const app = fastify();
    const nowMs = Date.parse('2026-03-10T12:00:00Z');
    registerMetricsRoute(app, metrics.registry, () =>
      metrics.observeStatus(buildStatusReport({ store: h.store, nowMs, limits: DEFAULT_RISK_LIMITS, budgets: [], dryRun: false })),
    );
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    close = async () => {
      await app.close();
      h.cleanup();
    };
    metrics.webhookEvents.inc({ outcome: 'accepted' });
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    const names = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => `${match[1]} ${match[2]}`);
    expect(names).toEqual([
      'lendbot_balance_cents gauge',
      'lendbot_reserved_cents gauge',
      'lendbot_free_cash_cents gauge',
      'lendbot_exposure_cents gauge',
      'lendbot_data_spend_cents gauge',
      'lendbot_webhook_inbox_depth gauge',
      'lendbot_last_poll_timestamp_seconds gauge',
      'lendbot_offers_today gauge',
      'lendbot_offers gauge',
      'lendbot_protection_paused gauge',
      'lendbot_equity_cents gauge',
      'lendbot_expected_inflow_next_month_cents gauge',
      'lendbot_idle_share gauge',
      'lendbot_webhooks_silent gauge',
      'lendbot_default_predicted gauge',
      'lendbot_default_realised gauge',
      'lendbot_default_realised_low gauge',
      'lendbot_calibration_loans gauge',
      'lendbot_calibration_alert gauge',
      'lendbot_vintage_loans gauge',
      'lendbot_vintage_default_predicted gauge',
      'lendbot_vintage_default_expected_by_now gauge',
      'lendbot_vintage_default_realised gauge',
      'lendbot_vintage_default_realised_low gauge',
      'lendbot_vintage_default_realised_high gauge',
      'lendbot_vintage_age_months gauge',
      'lendbot_vintage_term_elapsed gauge',
      'lendbot_instalments_due gauge',
      'lendbot_instalments_late gauge',
      'lendbot_instalments_missed gauge',
      'lendbot_instalment_hazard gauge',
      'lendbot_instalment_hazard_expected gauge',
      'lendbot_requests_seen_total counter',
      'lendbot_decisions_total counter',
      'lendbot_offers_total counter',
      'lendbot_api_calls_total counter',
      'lendbot_api_errors_total counter',
      'lendbot_webhook_events_total counter',
      'lendbot_api_call_seconds histogram',
      'lendbot_webhook_to_offer_seconds histogram',
    ]);
    expect(sample(text, 'lendbot_balance_cents')).toBe(330_000);
    expect(sample(text, 'lendbot_reserved_cents')).toBe(83_000);
    expect(sample(text, 'lendbot_exposure_cents{risk_level="2"}')).toBe(76_000);
    expect(sample(text, 'lendbot_data_spend_cents')).toBe(400);
    expect(sample(text, 'lendbot_webhook_inbox_depth')).toBe(2);
    expect(sample(text, 'lendbot_last_poll_timestamp_seconds')).toBe(Date.parse('2026-03-10T11:58:30Z') / 1000);
    expect(sample(text, 'lendbot_webhook_events_total{outcome="accepted"}')).toBe(1);
  });

  it('counts requests, decisions, offers and webhook-to-offer time from the real pipeline', async () => {
    const harness: DaemonHarness = await startDaemonHarness();
    close = () => harness.close();
    const metrics = createMetrics({ processMetrics: false });
    instrumentPipeline(harness.daemon.pipeline, { metrics, store: harness.store, clock: harness.sandbox.clock });
    const request = harness.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, competitorOffers: 0 });
    await harness.sandbox.control.flushWebhooks();
    await waitFor(() => harness.store.decisions.has(request.id), 'the decision');
    await harness.daemon.pipeline.idle();
    const text = await metrics.registry.metrics();
    expect(sample(text, 'lendbot_requests_seen_total{source="webhook"}')).toBe(1);
    expect(sample(text, 'lendbot_offers_total{outcome="placed"}')).toBe(1);
    expect(text).toMatch(/^lendbot_decisions_total\{action="offer",reason="[a-z_ ]+"\} 1$/m);
    expect(sample(text, 'lendbot_webhook_to_offer_seconds_count')).toBe(1);
  });

  it('counts API calls and errors by endpoint and code', async () => {
    const harness: DaemonHarness = await startDaemonHarness();
    close = () => harness.close();
    const metrics = createMetrics({ processMetrics: false });
    const { sandbox } = harness;
    const client = instrumentClient(
      createMarketplaceClient(
        {
          baseUrl: sandbox.url,
          apiKey: sandbox.credentials.apiKey,
          secretKey: sandbox.credentials.secretKey,
          signatureMode: 'timestamp-secret',
          numericRangeFormat: 'min-max-params',
          timeoutMs: 5000,
          retry: DEFAULT_RETRY,
        },
        { clock: sandbox.clock },
      ),
      metrics,
    );
    for await (const page of client.loanRequestPages()) expect(page.items).toBeInstanceOf(Array);
    const failure = await client.makeOffer(999_999, { offeredInterest: 0.2, automateFund: false }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceError);
    const code = (failure as ServiceError).code;
    const text = await metrics.registry.metrics();
    expect(sample(text, 'lendbot_api_calls_total{endpoint="loanRequestPages",code="ok"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, `lendbot_api_calls_total{endpoint="makeOffer",code="${code}"}`)).toBe(1);
    expect(sample(text, `lendbot_api_errors_total{endpoint="makeOffer",code="${code}"}`)).toBe(1);
    // A failed call is timed too; a real HTTP round trip takes more than nothing.
    expect(sample(text, 'lendbot_api_call_seconds_count{endpoint="makeOffer"}')).toBe(1);
    expect(sample(text, 'lendbot_api_call_seconds_sum{endpoint="makeOffer"}')).toBeGreaterThan(0);
    client.close();
  });
});
