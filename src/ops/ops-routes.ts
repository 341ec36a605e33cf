/**
 * `GET /healthz` and `GET /metrics`, added to the webhook listener's fastify instance before it
 * listens, so one port serves the marketplace, the orchestrator and Prometheus. They are outside
 * the webhook scope, so they keep answering while intake is stopped during shutdown.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { Registry } from 'prom-client';
import type { HealthReport } from './health.js';

export type OpsApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger>;

export const HEALTH_PATH = '/healthz';
export const METRICS_PATH = '/metrics';

/** 200 with the report when every check passes, 503 with it when one fails. */
export function registerHealthRoute(app: OpsApp, check: () => HealthReport): void {
  app.get(HEALTH_PATH, async (_request, reply) => {
    const report = check();
    return reply.code(report.status === 'ok' ? 200 : 503).header('cache-control', 'no-store').send(report);
  });
}

/** The registry in Prometheus text format; `beforeScrape` refreshes gauges read from the store. */
export function registerMetricsRoute(app: OpsApp, registry: Registry, beforeScrape?: () => void): void {
  app.get(METRICS_PATH, async (request, reply) => {
    try {
      beforeScrape?.();
    } catch (error) {
      // Counters are still worth serving when the store cannot be read; the health check says why.
      request.log.warn({ err: error }, 'metrics gauges not refreshed');
    }
    return reply.header('content-type', registry.contentType).send(await registry.metrics());
  });
}
