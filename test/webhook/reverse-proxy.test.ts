/**
 * The reverse proxy of docs/going-live.md in front of a real webhook listener: a small Node proxy
 * on a free port that forwards as the guide's nginx and Caddy examples do (only POST /webhooks and
 * GET /healthz; Host, X-Forwarded-For, X-Forwarded-Proto and X-Real-IP set; every other header,
 * X-Svc-Topic included, passed on; the body either buffered and sent with its Content-Length, as
 * nginx does, or streamed chunked, as Caddy does). A signed event POSTed to the proxy must arrive
 * byte-exact, verify and be stored; the forwarded headers must not change what lendbot believes
 * about the caller (it logs the socket's address, never X-Forwarded-For); and a proxy that drops
 * X-Svc-Topic (the mistake the guide warns about) gets every event refused, which is how the
 * guide's `lendbot webhook test` would show it.
 *
 * Then the guide's nginx example itself (the lines between `# lendbot: begin` and `# lendbot: end`
 * of its nginx block, served over plain HTTP on a free port) in a real nginx, when one is
 * installed: CI installs Debian's nginx-light and sets LENDBOT_REQUIRE_NGINX=1, so there its
 * absence fails instead of skipping.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DATA, TOPIC, UUID, eventClaims, signToken, startListener, tokenBody, type Harness } from './webhook-fixtures.js';

interface ProxyOptions {
  /** nginx buffers the body and sends it with Content-Length; Caddy streams it chunked. */
  body: 'buffer' | 'stream';
  /** Headers a misconfigured proxy leaves out. */
  drop?: readonly string[];
}

interface Proxy {
  url: string;
  /** What the client sent and what went on to the listener, per request. */
  seen: Array<{ received: Buffer[]; forwarded: Buffer[]; headers: IncomingHttpHeaders }>;
  close: () => Promise<void>;
}

const PUBLIC_HOST = 'lendbot.example.org';
const FORWARDED_PATHS = new Set(['POST /webhooks', 'GET /healthz']);
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'host',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
]);

/** A reverse proxy forwarding as docs/going-live.md's nginx and Caddy examples, to `upstream`. */
async function startProxy(upstream: string, options: ProxyOptions): Promise<Proxy> {
  const target = new URL(upstream);
  const seen: Proxy['seen'] = [];
  const server: Server = createServer((incoming, outgoing) => {
    if (!FORWARDED_PATHS.has(`${incoming.method ?? ''} ${incoming.url ?? ''}`)) {
      outgoing.writeHead(404).end(); // the guide forwards nothing else (the operator port never)
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name) && !options.drop?.includes(name)) headers[name] = value;
    }
    const client = incoming.socket.remoteAddress ?? '';
    const before = incoming.headers['x-forwarded-for'];
    headers.host = PUBLIC_HOST; // proxy_set_header Host $host
    headers['x-forwarded-for'] = before === undefined ? client : `${[before].flat().join(', ')}, ${client}`;
    headers['x-forwarded-proto'] = 'https';
    headers['x-real-ip'] = client;
    const received: Buffer[] = [];
    const forwarded: Buffer[] = [];
    const send = (body: Buffer | undefined): void => {
      if (body !== undefined) headers['content-length'] = String(body.length);
      const upstreamRequest = httpRequest(
        { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstreamRequest.on('error', () => outgoing.writeHead(502).end());
      if (body !== undefined) {
        forwarded.push(body);
        upstreamRequest.end(body);
        return;
      }
      incoming.on('data', (chunk: Buffer) => {
        forwarded.push(chunk);
        upstreamRequest.write(chunk);
      });
      incoming.on('end', () => upstreamRequest.end());
    };
    seen.push({ received, forwarded, headers });
    incoming.on('data', (chunk: Buffer) => received.push(chunk));
    if (options.body === 'stream') send(undefined);
    else incoming.on('end', () => send(Buffer.concat(received)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let listener: Harness | undefined;
let proxy: Proxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await listener?.close();
  proxy = undefined;
  listener = undefined;
});

async function through(options: ProxyOptions): Promise<{ listener: Harness; proxy: Proxy }> {
  listener = await startListener();
  proxy = await startProxy(new URL(listener.url).origin, options);
  return { listener, proxy };
}

/** A signed event as the marketplace sends it, with non-ASCII text beside the token so a re-encoded body would show. */
async function marketplaceBody(): Promise<string> {
  return tokenBody(await signToken(eventClaims()), { note: 'prêt n°1001 ✓' });
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}/webhooks`, { method: 'POST', headers, body });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

const MARKETPLACE_HEADERS = { 'content-type': 'application/json', 'x-svc-topic': TOPIC, 'x-forwarded-for': '203.0.113.9' };

describe.each(['buffer', 'stream'] as const)('a webhook through a reverse proxy (body %s)', (body) => {
  it('arrives byte-exact, verifies and is stored, with the forwarded headers set', async () => {
    const { listener: l, proxy: p } = await through({ body });
    const sent = await marketplaceBody();
    expect(await post(p.url, sent, MARKETPLACE_HEADERS)).toEqual({ status: 200, body: { status: 'accepted' } });
    expect(p.seen).toHaveLength(1);
    const [hop] = p.seen;
    expect(Buffer.concat(hop?.received ?? []).equals(Buffer.from(sent))).toBe(true);
    expect(Buffer.concat(hop?.forwarded ?? []).equals(Buffer.from(sent))).toBe(true);
    expect(hop?.headers).toMatchObject({
      host: PUBLIC_HOST,
      'x-forwarded-proto': 'https',
      'x-forwarded-for': '203.0.113.9, 127.0.0.1',
      'x-svc-topic': TOPIC,
    });
    expect(l.store.inbox.get(UUID)).toMatchObject({ webhookUuid: UUID, topic: TOPIC, data: DATA });
    expect(l.outcomes).toEqual(['accepted']);
  });

  it('logs the socket address of a refused caller, never the X-Forwarded-For it claims', async () => {
    const { listener: l, proxy: p } = await through({ body });
    const forged = tokenBody(await signToken(eventClaims(), 'not-the-secret'));
    expect((await post(p.url, forged, MARKETPLACE_HEADERS)).status).toBe(401);
    expect(l.outcomeLines()).toEqual([expect.objectContaining({ outcome: 'forged', remoteAddress: '127.0.0.1' })]);
    expect(l.logText()).not.toContain('203.0.113.9');
  });
});

describe('what the guide warns about', () => {
  it('a proxy that drops X-Svc-Topic gets a genuine event refused 400 topic_mismatch, and nothing stored', async () => {
    const { listener: l, proxy: p } = await through({ body: 'buffer', drop: ['x-svc-topic'] });
    const answer = await post(p.url, await marketplaceBody(), MARKETPLACE_HEADERS);
    expect(answer).toEqual({ status: 400, body: expect.objectContaining({ code: 'topic_mismatch' }) });
    expect(l.store.inbox.get(UUID)).toBeUndefined();
  });

  it('forwards nothing but /webhooks and /healthz: the operator paths are 404 there', async () => {
    const { proxy: p } = await through({ body: 'buffer' });
    expect((await fetch(`${p.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${p.url}/api/status`)).status).toBe(404);
  });
});

const GUIDE = fileURLToPath(new URL('../../docs/going-live.md', import.meta.url));
const found = (command: string): boolean => spawnSync(command, ['version'], { stdio: 'ignore' }).error === undefined;
const nginxFound = found('nginx');
const caddyFound = found('caddy');
const required = process.env.LENDBOT_REQUIRE_PROXIES === '1';
for (const [name, there] of [
  ['nginx', nginxFound],
  ['caddy', caddyFound],
] as const) {
  if (!there && !required)
    console.warn(
      `reverse-proxy.test.ts: ${name} not found, its test of the guide's example is skipped (apt-get install ${name === 'nginx' ? 'nginx-light' : 'caddy'})`,
    );
}

/** The lines between the markers of the guide's ```<language> block, aimed at `upstream` (host:port). */
function guideLines(language: 'nginx' | 'caddy', upstream: string): string {
  const block = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(readFileSync(GUIDE, 'utf8'))?.[1] ?? '';
  const lines = /# lendbot: begin\n([\s\S]*?)\n\s*# lendbot: end/.exec(block)?.[1] ?? '';
  expect(lines).toContain('127.0.0.1:8080');
  return lines.replaceAll('127.0.0.1:8080', upstream);
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface RealProxy {
  url: string;
  close: () => Promise<void>;
}

const NGINX_TEMPS = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'];

/** nginx in the foreground, one process, everything it writes in `dir`. */
function nginxCommand(dir: string, port: number, upstream: string): [string, string[]] {
  const conf = [
    'daemon off;',
    'master_process off;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log;`,
    'events { worker_connections 64; }',
    'http {',
    '  access_log off;',
    ...NGINX_TEMPS.map((temp) => `  ${temp}_temp_path ${dir}/${temp};`),
    `  server {\n    listen 127.0.0.1:${port};\n${guideLines('nginx', upstream)}\n  }`,
    '}',
  ].join('\n');
  for (const temp of NGINX_TEMPS) mkdirSync(join(dir, temp));
  writeFileSync(join(dir, 'nginx.conf'), conf);
  return ['nginx', ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')]];
}

/** Caddy with the guide's site block on plain HTTP (no certificate, no admin endpoint). */
function caddyCommand(dir: string, port: number, upstream: string): [string, string[]] {
  const conf = `{\n\tadmin off\n\tauto_https off\n\tstorage file_system ${dir}/data\n}\nhttp://127.0.0.1:${port} {\n${guideLines('caddy', upstream)}\n}\n`;
  writeFileSync(join(dir, 'Caddyfile'), conf);
  return ['caddy', ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile']];
}

async function startRealProxy(kind: 'nginx' | 'caddy', upstream: string): Promise<RealProxy> {
  if (!(kind === 'nginx' ? nginxFound : caddyFound))
    throw new Error(
      `${kind} is not installed and LENDBOT_REQUIRE_PROXIES=1 asks for it (apt-get install ${kind === 'nginx' ? 'nginx-light' : 'caddy'})`,
    );
  const dir = mkdtempSync(join(tmpdir(), `lendbot-${kind}-`));
  const port = await freePort();
  const [command, args] = (kind === 'nginx' ? nginxCommand : caddyCommand)(dir, port, new URL(upstream).host);
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir };
  const child: ChildProcess = spawn(command, args, { stdio: 'ignore', env });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  // Ready when it answers; bounded by tries, not by a clock.
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (child.exitCode !== null) break;
    if (
      await fetch(`${url}/nothing`).then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.each([
  ['nginx', nginxFound],
  ['caddy', caddyFound],
] as const)("the guide's %s example, run for real", (kind, there) => {
  let proxied: RealProxy | undefined;
  afterEach(async () => {
    await proxied?.close();
    proxied = undefined;
  });

  it.skipIf(!there && !required)(
    'passes a signed event through to be stored, refuses a forged one naming the proxy, forwards nothing else',
    async () => {
      listener = await startListener();
      proxied = await startRealProxy(kind, new URL(listener.url).origin);
      expect(await post(proxied.url, await marketplaceBody(), MARKETPLACE_HEADERS)).toEqual({ status: 200, body: { status: 'accepted' } });
      expect(listener.store.inbox.get(UUID)).toMatchObject({ webhookUuid: UUID, topic: TOPIC, data: DATA });

      const forged = tokenBody(await signToken(eventClaims({ webhook_uuid: '7e1d2c3b-4a59-4e68-9d7c-0b1a2c3d4e5f' }), 'not-the-secret'));
      expect((await post(proxied.url, forged, MARKETPLACE_HEADERS)).status).toBe(401);
      expect(listener.outcomeLines().at(-1)).toMatchObject({ outcome: 'forged', remoteAddress: '127.0.0.1' });
      expect(listener.logText()).not.toContain('203.0.113.9');

      // nginx refuses GET at the proxy (limit_except POST); Caddy forwards it and the listener answers as it would.
      const getDirect = (await fetch(listener.url)).status;
      expect(getDirect).toBe(404);
      expect((await fetch(`${proxied.url}/webhooks`)).status).toBe(kind === 'nginx' ? 403 : getDirect);
      expect((await fetch(`${proxied.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${proxied.url}/api/status`)).status).toBe(404);
      expect(listener.outcomes).toEqual(['accepted', 'forged']);
    },
  );

  it.skipIf(!there && !required)('refuses a body over 64 KiB with 413, storing nothing', async () => {
    listener = await startListener();
    proxied = await startRealProxy(kind, new URL(listener.url).origin);
    const big = tokenBody(await signToken(eventClaims()), { padding: 'x'.repeat(70_000) });
    expect((await fetch(`${proxied.url}/webhooks`, { method: 'POST', headers: MARKETPLACE_HEADERS, body: big })).status).toBe(413);
    expect(listener.store.inbox.get(UUID)).toBeUndefined();
  });
});
