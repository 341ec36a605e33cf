/**
 * The operator API as one group of the operator listener's routes: the JSON API under `/api`,
 * and beside it `/metrics` and `/reports/:name`. Every route is behind operator-auth.ts:
 *
 * - `GET /api/me`, `POST /api/session` (a JSON body) and `DELETE /api/session` answer everyone;
 * - every other GET (and HEAD) needs a caller who may read;
 * - every other method needs a signed-in caller and a JSON body.
 *
 * Checked in onRequest, before the body is read, so a refused caller's body is never parsed.
 * Errors are `{ "error": "one line" }`; a server error's detail goes to the log, not the answer.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { METRICS_PATH } from '../../ops/ops-routes.js';
import type { OperatorApp, OperatorRoutes } from '../operator-listener.js';
import { fail, type ApiDeps } from './api-deps.js';
import { registerBookRoutes } from './book-routes.js';
import { registerDecisionRoutes } from './decision-routes.js';
import { pathOf } from './operator-auth.js';
import { registerOverviewRoutes } from './overview-routes.js';
import { registerPaperRoutes } from './paper-routes.js';
import { registerPauseRoutes } from './pause-routes.js';
import { registerReportFileRoute, registerReportListRoute } from './report-routes.js';
import { registerReturnsRoutes } from './returns-routes.js';
import { registerSessionRoutes } from './session-routes.js';

const API_PREFIX = '/api';
/** Small: the API's bodies are a token or a reason. */
const BODY_LIMIT_BYTES = 16 * 1024;
const OPEN_PATHS = new Set([`${API_PREFIX}/me`, `${API_PREFIX}/session`]);

function jsonBodyParser(scope: OperatorApp): void {
  scope.removeContentTypeParser('application/json');
  // An empty body is `{}`: `fetch(url, { method: 'POST', headers })` without one is fine.
  scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => {
    const text = String(body).trim();
    if (text === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('the body is not valid JSON'), { statusCode: 400 }), undefined);
    }
  });
}

function errorHandler(deps: ApiDeps) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      deps.log.error({ err: error, method: request.method, path: pathOf(request) }, 'operator API request failed');
      return fail(reply, status, "internal error (the daemon's log says why)");
    }
    return fail(reply, status, error.message);
  };
}

export function operatorApiRoutes(deps: ApiDeps): OperatorRoutes {
  const { auth } = deps;
  return {
    name: 'api',
    register(app) {
      void app.register(
        async (api) => {
          jsonBodyParser(api);
          api.setErrorHandler(errorHandler(deps));
          api.setNotFoundHandler((request, reply) => fail(reply, 404, `no route ${request.method} ${pathOf(request)}`));
          api.addHook('onRequest', async (request, reply) => {
            const path = pathOf(request);
            if (OPEN_PATHS.has(path)) {
              if (request.method === 'POST' && !/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
                return fail(reply, 415, 'send the body as content-type: application/json');
              }
              return undefined;
            }
            if (request.method === 'GET' || request.method === 'HEAD') return auth.requireRead(request, reply);
            return auth.requireChange(request, reply);
          });
          const wingRoutes: string[] = [];
          registerSessionRoutes(api, deps, wingRoutes);
          registerOverviewRoutes(api, deps);
          registerDecisionRoutes(api, deps);
          registerBookRoutes(api, deps);
          registerReturnsRoutes(api, deps);
          registerReportListRoute(api, deps);
          registerPauseRoutes(api, deps);
          registerPaperRoutes(api, deps);
          // The wings' routes (the proposals', src/proposals/proposal-routes.ts) after the API's own,
          // noted as they are mounted: what GET /api/me says is there is what answers.
          api.addHook('onRoute', (route) => {
            if (route.method === 'GET') wingRoutes.push(route.url);
          });
          for (const register of deps.apiRoutes ?? []) register(api, deps);
        },
        { prefix: API_PREFIX },
      );

      void app.register(async (root) => {
        root.setErrorHandler(errorHandler(deps));
        root.addHook('onRequest', auth.requireRead);
        registerReportFileRoute(root, deps);
        const { metrics } = deps;
        if (metrics !== undefined) {
          root.get(METRICS_PATH, async (_request, reply) =>
            reply
              .header('content-type', metrics.contentType)
              .header('cache-control', 'no-store')
              .send(await metrics.render()),
          );
        }
      });
    },
  };
}
