/**
 * The dashboard in the browser (docs/dashboard.md): `GET /` is its page, `/assets/...` its
 * modules and stylesheet, `/assets/vendor/chart.umd.min.js` Chart.js from node_modules. Nothing
 * is fetched from the network at run time and nothing is built: the files are served as written.
 *
 * The page and its files are public (they hold no data; the sign-in box is on the page); the
 * data comes from the operator API, which decides who may read and change what.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OperatorApp, OperatorRoutes } from '../operator-listener.js';
import { loadAssets, loadChartJs, type Asset } from './dashboard-assets.js';

export const CHART_JS_PATH = '/assets/vendor/chart.umd.min.js';

// Only this origin's own files and API; no inline script or style, no frames, no plug-ins.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

// Our modules import each other by plain relative URLs, so a cached old module could meet a new
// one after an upgrade: the browser keeps them but asks each time (a 304 on loopback is cheap).
// Chart.js changes only with `npm install`: a day is fine.
const OWN_FILES_CACHE = 'no-cache';
const VENDOR_CACHE = 'public, max-age=86400';

function send(request: FastifyRequest, reply: FastifyReply, asset: Asset, cacheControl: string): FastifyReply {
  reply.header('cache-control', cacheControl).header('etag', asset.etag).header('x-content-type-options', 'nosniff');
  if (asset.contentType.startsWith('text/html')) {
    reply
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('referrer-policy', 'no-referrer')
      .header('x-frame-options', 'DENY');
  }
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.type(asset.contentType).send(asset.body);
}

/** The dashboard's page and files on the operator listener. */
export function dashboardRoutes(options: { assets?: Map<string, Asset>; chartJs?: Asset } = {}): OperatorRoutes {
  return {
    name: 'dashboard',
    register(app: OperatorApp) {
      // Read at start, so a missing file (a dist/ compiled without bin/build-dist.js, chart.js not
      // installed) is said once in the log. The daemon trades on and the API still answers.
      let files: { assets: Map<string, Asset>; chartJs: Asset; page: Asset };
      try {
        const assets = options.assets ?? loadAssets();
        const page = assets.get('index.html');
        if (page === undefined) throw new Error('index.html is missing');
        files = { assets, chartJs: options.chartJs ?? loadChartJs(), page };
      } catch (error) {
        const why = `the dashboard's files cannot be read (${(error as Error).message}): build with npm run build, which copies them to dist/, and check that chart.js is installed`;
        app.log.error({ err: error }, why);
        const unavailable = async (_request: FastifyRequest, reply: FastifyReply) =>
          reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(`${why}\n`);
        app.get('/', unavailable);
        app.get('/assets/*', unavailable);
        return;
      }
      const { assets, chartJs, page } = files;

      app.get('/', async (request, reply) => send(request, reply, page, OWN_FILES_CACHE));
      app.get(CHART_JS_PATH, async (request, reply) => send(request, reply, chartJs, VENDOR_CACHE));
      app.get('/assets/*', async (request, reply) => {
        const path = (request.params as { '*'?: string })['*'] ?? '';
        const asset = assets.get(path);
        if (asset === undefined || path === 'index.html') {
          return reply.code(404).header('cache-control', 'no-store').send({ error: 'no such dashboard file' });
        }
        return send(request, reply, asset, OWN_FILES_CACHE);
      });
    },
  };
}
