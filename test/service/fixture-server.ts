/**
 * A small HTTP server that stands in for the marketplace in client tests. It checks the
 * authentication headers exactly as spec part 5 says the service does (including the 5-minute
 * window and the four error texts of part 7), records every request, and answers from a route
 * table the test controls.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';

export interface FixtureRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface FixtureReply {
  status: number;
  body?: unknown;
  /** Sent as-is instead of JSON (for malformed answers). */
  rawBody?: string | Buffer;
  /** Streamed instead of a body held in memory (for huge answers). */
  stream?: () => Readable;
  headers?: Record<string, string>;
  /** Wait this long before answering (for timeouts). */
  delayMs?: number;
  /** Drop the connection without answering. */
  destroy?: boolean;
}

export type FixtureHandler = (request: FixtureRequest, server: FixtureServer) => FixtureReply;

export interface FixtureServer {
  url: string;
  requests: FixtureRequest[];
  route(key: string, handler: FixtureHandler): void;
  close(): Promise<void>;
}

export interface FixtureOptions {
  apiKey: string;
  secretKey: string;
  /** The server's idea of now, in Unix seconds; also what its `Date` header says. */
  nowSeconds?: () => number;
  /** Send a `Date` header with every answer (default true), as HTTP servers do. */
  sendDate?: boolean;
  /** Hold authentication refusals this long, so concurrent calls are all refused before any answer. */
  refusalDelayMs?: number;
}

export async function startFixtureServer(options: FixtureOptions): Promise<FixtureServer> {
  const routes = new Map<string, FixtureHandler>();
  const requests: FixtureRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const now = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fixture');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = undefined;
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      const request: FixtureRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      };
      requests.push(request);
      const refusal = authenticate(request, options, now());
      const reply = refusal ? { ...refusal, ...(options.refusalDelayMs ? { delayMs: options.refusalDelayMs } : {}) } : answer(request);
      const send = (): void => {
        if (reply.destroy) {
          req.socket.destroy();
          return;
        }
        // The Date header tells the server's own clock, not the machine's (which Node would send).
        res.sendDate = false;
        const date = options.sendDate === false ? {} : { Date: new Date(now() * 1000).toUTCString() };
        res.writeHead(reply.status, { 'Content-Type': 'application/json', ...date, ...reply.headers });
        if (reply.stream) {
          // The client may stop reading on purpose; the broken pipe is no failure of the fixture.
          const source = reply.stream();
          source.on('error', () => res.destroy());
          res.on('close', () => source.destroy());
          source.pipe(res);
          return;
        }
        res.end(reply.rawBody ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });

  function answer(request: FixtureRequest): FixtureReply {
    const handler = routes.get(`${request.method} ${request.path}`);
    if (!handler) return { status: 404, body: { detail: 'Not found.' } };
    return handler(request, fixture);
  }

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const fixture: FixtureServer = {
    url: '',
    requests,
    route: (key, handler) => routes.set(key, handler),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fixture.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fixture;
}

/** The service's authentication check (spec part 5 and the texts of part 7). */
function authenticate(request: FixtureRequest, options: FixtureOptions, nowSeconds: number): FixtureReply | undefined {
  const key = request.headers['x-api-key'];
  const timestamp = request.headers['x-timestamp'];
  const signature = request.headers['x-hmac'];
  const denied = (detail: string): FixtureReply => ({ status: 403, body: { detail } });
  if (typeof key !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') {
    return denied('Authentication credentials were not provided.');
  }
  if (key !== options.apiKey) return denied('Invalid API Key');
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > 300) return denied('Timestamp out of range');
  const expected = createHmac('sha256', options.secretKey).update(`${timestamp}:${options.secretKey}`).digest('hex');
  if (signature !== expected) return denied('Invalid HMAC');
  return undefined;
}

/** A paginated answer (spec 2.1) for page `page` of `items`, `size` a page, with absolute links. */
export function pageOf<T>(server: FixtureServer, path: string, items: readonly T[], page: number, size: number): FixtureReply {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const link = (n: number): string | null => (n >= 1 && n <= pages ? `${server.url}${path}?page=${n}` : null);
  return {
    status: 200,
    body: {
      count: items.length,
      next: link(page + 1),
      previous: page === 2 ? `${server.url}${path}` : link(page - 1),
      results: items.slice((page - 1) * size, page * size),
    },
  };
}
