/**
 * The dashboard's files on a real operator listener: the page and its modules with the right
 * content types and cache headers, Chart.js from node_modules, a 304 for an unchanged file,
 * nothing outside the assets folder whatever the path spells, and every module the page imports
 * actually served; and a change to one of them makes a build stale.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS_DIR, loadAssets } from '../../src/operator/dashboard/dashboard-assets.js';
import { CHART_JS_PATH, dashboardRoutes } from '../../src/operator/dashboard/dashboard-routes.js';
import { buildOperatorListener, type OperatorListener } from '../../src/operator/operator-listener.js';
import { captureLog } from '../log/log-capture.js';
// @ts-expect-error: plain JavaScript without types (it runs before any TypeScript loader)
import { sourceStamp, STATIC_FOLDERS } from '../../bin/source-stamp.js';

let listener: OperatorListener;

beforeAll(async () => {
  listener = buildOperatorListener({ host: '127.0.0.1', port: 0, log: captureLog().log, routes: [dashboardRoutes()] });
  await listener.listen();
});
afterAll(() => listener.close());

/** A GET with the path sent exactly as written (fetch would tidy away `..`). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const { port } = listener.address();
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the dashboard routes', () => {
  it('serve the page with a strict content security policy, revalidated on every load', async () => {
    const response = await fetch(`${listener.url()}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    expect(html).toContain('data-testid="decisions-table"');
    expect(html).toContain(`<script src="${CHART_JS_PATH}" defer></script>`);
    // No file of the page comes from another origin.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);

    const again = await fetch(`${listener.url()}/`, { headers: { 'if-none-match': response.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
  });

  it('serve the modules, the stylesheet and Chart.js with their content types', async () => {
    const cases: Array<[string, string, string]> = [
      ['/assets/main.js', 'text/javascript; charset=utf-8', 'no-cache'],
      ['/assets/dashboard.css', 'text/css; charset=utf-8', 'no-cache'],
      ['/assets/favicon.svg', 'image/svg+xml', 'no-cache'],
      [CHART_JS_PATH, 'text/javascript; charset=utf-8', 'public, max-age=86400'],
    ];
    for (const [path, type, cache] of cases) {
      const response = await fetch(`${listener.url()}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe(type);
      expect(response.headers.get('cache-control'), path).toBe(cache);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    const chart = await (await fetch(`${listener.url()}${CHART_JS_PATH}`)).text();
    expect(chart).toMatch(/^\/\*!\s*\n?\s*\* Chart\.js v4\./);
  });

  it('serve every module the page imports, and nothing it does not', async () => {
    const assets = loadAssets();
    const imports = [...assets.entries()]
      .filter(([name]) => name.endsWith('.js'))
      .flatMap(([, asset]) =>
        [...asset.body.toString('utf8').matchAll(/^import .* from '\.\/([\w-]+\.js)';$/gm)].map((match) => match[1] ?? ''),
      );
    expect(imports.length).toBeGreaterThan(10);
    for (const name of new Set(imports)) expect((await fetch(`${listener.url()}/assets/${name}`)).status, name).toBe(200);
    expect((await fetch(`${listener.url()}/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${listener.url()}/assets/index.html`)).status).toBe(404);
  });

  it('never reach outside the assets folder, whatever the path spells', async () => {
    const attempts = [
      '/assets/../dashboard-routes.ts',
      '/assets/%2e%2e/dashboard-routes.ts',
      '/assets/..%2fdashboard-routes.ts',
      '/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json',
      '/assets/vendor/../../dashboard-assets.ts',
      '/assets/%2fetc%2fpasswd',
      '/assets//etc/passwd',
      '/assets/vendor/chart.umd.js',
    ];
    for (const path of attempts) {
      const { status, body } = await rawGet(path);
      expect(status, path).toBe(404);
      expect(body, path).not.toMatch(/import|root:|"name"/);
    }
  });
});

describe('the build of the dashboard', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-dashboard-build-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // bin/build-dist.js copies STATIC_FOLDERS to dist/ after compiling; a change to a dashboard
  // file must make dist/ stale like a change to the TypeScript does.
  it('counts the assets folder, which it copies as it is, in the source stamp', () => {
    expect(STATIC_FOLDERS).toContain('operator/dashboard/assets');
    expect(ASSETS_DIR.replaceAll('\\', '/')).toMatch(/\/src\/operator\/dashboard\/assets\/$/);
    mkdirSync(join(dir, 'src/operator/dashboard/assets'), { recursive: true });
    const page = join(dir, 'src/operator/dashboard/assets/index.html');
    writeFileSync(page, '<!doctype html>\n');
    const stamp = sourceStamp as (root: string) => string;
    const before = stamp(dir);
    writeFileSync(page, '<!doctype html><title>changed</title>\n');
    expect(stamp(dir)).not.toBe(before);
  });
});

describe('a dashboard whose files are missing', () => {
  it('answers 503 saying how to fix it, and logs it once, instead of stopping the listener', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'lendbot-no-assets-'));
    const { log, lines } = captureLog();
    const broken = buildOperatorListener({ host: '127.0.0.1', port: 0, log, routes: [dashboardRoutes({ assets: loadAssets(empty) })] });
    await broken.listen();
    try {
      const response = await fetch(`${broken.url()}/`);
      expect(response.status).toBe(503);
      expect(await response.text()).toContain('npm run build');
      expect(
        lines.filter((line) => String(line.msg).startsWith("the dashboard's files cannot be read (index.html is missing)")),
      ).toHaveLength(1);
    } finally {
      await broken.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
