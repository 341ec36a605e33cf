/**
 * Who may use the operator API, over real HTTP to a daemon on the sandbox: anonymous reads from
 * loopback (and not when ops.open_on_loopback is false), changes only with a token or a session
 * and a JSON body, the session cookie's flags, /metrics moved from the webhook port, the reports
 * folder served without traversal, and no token in any log line.
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN, startApiHarness, VIEWER_TOKEN, type ApiHarness } from './api-harness.js';

let h: ApiHarness;
beforeAll(async () => {
  h = await startApiHarness();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const json = { 'content-type': 'application/json' };
/** The GET routes the wings mount (src/daemon/wing-surfaces.ts), as GET /api/me tells a reader. */
const WING_ROUTES = ['/api/proposals', '/api/proposals/:id', '/api/cash-flow', '/api/market-learning', '/api/calibration'];

describe('operator API authentication', () => {
  it('lets this machine read without a token, and says it may not change anything', async () => {
    const me = await h.call('/api/me');
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ signedIn: false, name: null, canRead: true, canChange: false, wingRoutes: WING_ROUTES });
    const overview = await h.call('/api/overview');
    expect(overview.status).toBe(200);
    const body = (await overview.json()) as {
      mode: string;
      strategies: string[];
      limits: { maxExposureCents: number; maxExposureByRiskLevelCents: Record<string, number> };
    };
    expect(body.mode).toBe('sandbox');
    expect(body.strategies).toEqual(['offer-all']);
    expect(body.limits.maxExposureCents).toBe(5_000_000);
    expect(body.limits.maxExposureByRiskLevelCents).toEqual({ '2': 1_250_000 });
  });

  it('refuses an anonymous read that names another host (a page of another site rebinding its name to 127.0.0.1)', async () => {
    const statusWithHost = (host: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL('/api/overview', h.base);
        const sent = httpRequest(
          { hostname: url.hostname, port: url.port, path: url.pathname, headers: { host, ...headers } },
          (answer) => {
            answer.resume();
            resolve(answer.statusCode ?? 0);
          },
        );
        sent.on('error', reject);
        sent.end();
      });
    expect(await statusWithHost('evil.example:8081')).toBe(401);
    expect(await statusWithHost('127.0.0.1.evil.example')).toBe(401);
    expect(await statusWithHost(`localhost:${new URL(h.base).port}`)).toBe(200);
    expect(await statusWithHost('[::1]:8081')).toBe(200);
    // A token still reads whatever name the request carries (a proxy in front may rename it).
    expect(await statusWithHost('evil.example', { authorization: `Bearer ${API_TOKEN}` })).toBe(200);
  });

  it('refuses a change without a token (401), with a wrong one (401), and one without a JSON body (415)', async () => {
    const noToken = await h.call('/api/pause', { method: 'POST', headers: json, body: '{}' });
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toEqual({ error: 'a change needs a token or a session: sign in, or send Authorization: Bearer <token>' });
    // A form of another site: no token, and a content type the API never takes.
    const form = await h.call('/api/pause', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'reason=x',
    });
    expect(form.status).toBe(401);
    const wrong = await h.call('/api/pause', { method: 'POST', headers: { ...json, authorization: 'Bearer not-the-token' }, body: '{}' });
    expect(wrong.status).toBe(401);
    const wrongRead = await h.call('/api/overview', { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrongRead.status).toBe(401);
    const notJson = await h.call('/api/resume', {
      method: 'POST',
      headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(notJson.status).toBe(415);
    expect(h.store.state.get('protection_pause')).toBeUndefined();
  });

  it('signs in with a token for an HttpOnly, SameSite=Strict cookie that then works, and signs out', async () => {
    const wrong = await h.call('/api/session', { method: 'POST', headers: json, body: JSON.stringify({ token: 'nope' }) });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();

    const signIn = await h.call('/api/session', { method: 'POST', headers: json, body: JSON.stringify({ token: VIEWER_TOKEN }) });
    expect(signIn.status).toBe(204);
    const setCookie = signIn.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^lendbot_session=[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).toContain('Max-Age=43200');
    const cookie = setCookie.split(';')[0] ?? '';

    const me = await h.call('/api/me', { headers: { cookie: `other=1; ${cookie}` } });
    expect(await me.json()).toEqual({ signedIn: true, name: 'viewer', canRead: true, canChange: true, wingRoutes: WING_ROUTES });
    const paused = await h.call('/api/pause', {
      method: 'POST',
      headers: { ...json, cookie },
      body: JSON.stringify({ reason: 'checking' }),
    });
    expect(paused.status).toBe(200);
    expect(((await paused.json()) as { pause: { reason: string } }).pause.reason).toContain('the dashboard (viewer): checking');
    const resumed = await h.call('/api/resume', { method: 'POST', headers: { ...json, cookie }, body: '{}' });
    expect(await resumed.json()).toEqual({ pause: null });

    const signOut = await h.call('/api/session', { method: 'DELETE', headers: { cookie } });
    expect(signOut.status).toBe(204);
    expect(signOut.headers.get('set-cookie')).toContain('Max-Age=0');
    const after = await h.call('/api/pause', { method: 'POST', headers: { ...json, cookie }, body: '{}' });
    expect(after.status).toBe(401);
    expect(await (await h.call('/api/me', { headers: { cookie } })).json()).toMatchObject({ signedIn: false });
  });

  it('serves /metrics on the operator port, and no longer on the webhook port', async () => {
    const metrics = await h.call('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(await metrics.text()).toContain('lendbot_balance_cents');
    const withToken = await h.asOperator('/metrics');
    expect(withToken.status).toBe(200);
    const onWebhookPort = await fetch(`${h.webhookBase}/metrics`);
    expect(onWebhookPort.status).toBe(404);
    expect((await fetch(`${h.webhookBase}/healthz`)).status).not.toBe(404);
  });

  it('lists the reports folder and serves a report, never a path out of it', async () => {
    writeFileSync(join(h.reportsDir, 'backtest-2026.html'), '<!doctype html><title>report</title>');
    writeFileSync(join(h.reportsDir, 'notes.txt'), 'not a report');
    writeFileSync(join(h.reportsDir, '..', 'secret.html'), '<p>outside</p>');
    symlinkSync(join(h.reportsDir, '..', 'secret.html'), join(h.reportsDir, 'link.html'));
    const list = await h.call('/api/reports');
    const body = (await list.json()) as { folder: string; reports: Array<{ name: string; url: string; sizeBytes: number }> };
    expect(body.folder).toBe(h.reportsDir);
    expect(body.reports.map((report) => report.name)).toEqual(['backtest-2026.html']);
    expect(body.reports[0]).toMatchObject({ url: '/reports/backtest-2026.html', sizeBytes: 36 });

    const served = await h.call('/reports/backtest-2026.html');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // Its inline scripts may draw; nothing in it may reach the API or load anything.
    expect(served.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await served.text()).toBe('<!doctype html><title>report</title>');
    for (const path of [
      '/reports/..%2fsecret.html',
      '/reports/%2e%2e%2fsecret.html',
      '/reports/..%5csecret.html',
      '/reports/link.html',
      '/reports/notes.txt',
      '/reports/secret.html',
    ]) {
      const refused = await h.call(path);
      expect(refused.status, path).toBe(404);
      expect(await refused.text(), path).not.toContain('outside');
    }
  });

  it('never writes a token into a log line', () => {
    const text = JSON.stringify(h.logs);
    expect(text).toContain('operator request refused');
    expect(text).toContain('operator signed in');
    for (const secret of [API_TOKEN, VIEWER_TOKEN, 'not-the-token', 'nope']) expect(text).not.toContain(secret);
    expect(text).not.toContain('lendbot_session=');
  });
});

describe('with ops.open_on_loopback false', () => {
  let closed: ApiHarness;
  beforeAll(async () => {
    closed = await startApiHarness({ openOnLoopback: false });
  }, 60_000);
  afterAll(async () => {
    await closed?.close();
  });

  it('refuses anonymous reads from this machine too, and answers a token', async () => {
    expect(await (await closed.call('/api/me')).json()).toEqual({
      signedIn: false,
      name: null,
      canRead: false,
      canChange: false,
      wingRoutes: [],
    });
    for (const path of ['/api/overview', '/api/decisions', '/api/reports', '/metrics'])
      expect((await closed.call(path)).status, path).toBe(401);
    expect((await closed.asOperator('/api/overview')).status).toBe(200);
  });
});
