/**
 * The sandbox's HTTP server (fastify): spec endpoints under /api/v3/ behind authentication and
 * fault injection, the control API under /_sandbox/, and error bodies shaped like the service's.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Clock } from '../../clock/clock.js';
import { InvalidArgumentError } from '../../service/index.js';
import { SandboxControlError, type SandboxControl } from '../control.js';
import type { SandboxRuntime } from '../runtime.js';
import { authenticate } from './auth.js';
import { fullUrl, HttpRefusal } from './http-helpers.js';
import { registerAccountRoutes } from './routes-account.js';
import { registerControlRoutes } from './routes-control.js';
import { registerDataRoutes } from './routes-data.js';
import { registerFundingRoutes } from './routes-funding.js';
import { registerLoanRequestRoutes } from './routes-loan-requests.js';

export interface ServerCredentials {
  apiKey: string;
  secretKey: string;
}

export function buildServer(
  runtime: SandboxRuntime,
  control: SandboxControl,
  credentials: ServerCredentials,
  wallClock: Clock | undefined,
): FastifyInstance {
  // A test or demo server: closing must never wait on a client's open connection.
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const log = runtime.log.child({ component: 'sandbox-http' });

  // An empty body counts as `{}` (the fund call may send none); bad JSON is a 400 like the service's.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(new HttpRefusal(400, { detail: `JSON parse error - ${error instanceof Error ? error.message : String(error)}` }), undefined);
    }
  });

  // A real service's Date header tells its own clock; clients correct their skew from it.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('date', new Date(runtime.clock.now()).toUTCString());
  });

  app.addHook('onRequest', async (request, reply) => {
    runtime.sync();
    if (!request.url.startsWith('/api/')) return;
    const failure = authenticate(request.headers, fullUrl(request), { ...credentials, clock: runtime.clock, wallClock });
    if (failure) return reply.code(403).send({ detail: failure });
    const latency = runtime.faults.latencyMs();
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
    const retryAfter = runtime.faults.takeRateLimit();
    if (retryAfter !== undefined) {
      return reply
        .code(429)
        .header('Retry-After', String(retryAfter))
        .send({ detail: `Request was throttled. Expected available in ${retryAfter} seconds.` });
    }
    if (runtime.faults.serverError()) return reply.code(500).send({ detail: 'A server error occurred.' });
    return undefined;
  });

  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof HttpRefusal) return reply.code(error.status).send(error.body);
    if (error instanceof InvalidArgumentError) return reply.code(400).send({ detail: error.message });
    if (error instanceof SandboxControlError) return reply.code(error.status).send({ detail: error.message });
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply.code(status).send({ detail: error instanceof Error ? error.message : String(error) });
    }
    log.error({ err: error }, 'sandbox request failed');
    return reply.code(500).send({ detail: 'A server error occurred.' });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not found.' }));

  registerLoanRequestRoutes(app, runtime);
  registerFundingRoutes(app, runtime);
  registerDataRoutes(app, runtime);
  registerAccountRoutes(app, runtime);
  registerControlRoutes(app, control);
  return app;
}
