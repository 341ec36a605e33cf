/**
 * `GET /healthz`, added to the webhook listener's fastify instance before it listens (the
 * orchestrator's probe, beside the marketplace's /webhooks), and `GET /metrics`, which the
 * operator listener serves behind its tokens (src/operator/api/api-routes.ts): the gauges tell
 * the balance, reserved money and exposure, not for whoever can reach the public port. Health
 * stays outside the webhook scope, so it keeps answering while intake is stopped during shutdown.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { Registry } from 'prom-client';
import type { HealthReport } from './health.js';

export type OpsApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger>;

const HEALTH_PATH = '/healthz';
export const METRICS_PATH = '/metrics';

/** Prometheus text of a registry, its store-read gauges refreshed first. */
export interface MetricsScrape {
  contentType: string;
  render(): Promise<string>;
}

/** 200 with the report when every check passes, 503 with it when one fails. */
export function registerHealthRoute(app: OpsApp, check: () => HealthReport): void {
  app.get(HEALTH_PATH, async (_request, reply) => {
    const report = check();
    return reply
      .code(report.status === 'ok' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(report);
  });
}

/** The registry as a scrape; `beforeScrape` refreshes gauges read from the store, `onRefreshError` hears it fail. */
export function metricsScrape(registry: Registry, beforeScrape?: () => void, onRefreshError?: (error: unknown) => void): MetricsScrape {
  return {
    contentType: registry.contentType,
    async render() {
      try {
        beforeScrape?.();
      } catch (error) {
        // Counters are still worth serving when the store cannot be read; the health check says why.
        onRefreshError?.(error);
      }
      return registry.metrics();
    },
  };
}

/** `GET /metrics` on an app of its own (tests; the daemon serves it on the operator listener). */
export function registerMetricsRoute(app: OpsApp, registry: Registry, beforeScrape?: () => void): void {
  app.get(METRICS_PATH, async (request, reply) => {
    const scrape = metricsScrape(registry, beforeScrape, (error) => request.log.warn({ err: error }, 'metrics gauges not refreshed'));
    return reply.header('content-type', scrape.contentType).send(await scrape.render());
  });
}
