/**
 * Who may do what on the operator listener (docs/operator-api.md, Authentication):
 *
 * - A caller is signed in with a bearer token (LENDBOT_OPERATOR_TOKEN or a named ops.tokens one)
 *   or with the session cookie the dashboard got by signing in with one.
 * - Reads need a signed-in caller, except from this machine's loopback address while
 *   `ops.open_on_loopback` is true (the default): the read-only dashboard on a laptop. The
 *   request must also name a loopback host (Host: 127.0.0.1:8081, localhost:8081): a page of
 *   another site that rebinds its own name to 127.0.0.1 (DNS rebinding) sends its own name there.
 * - Changes always need a signed-in caller and `content-type: application/json`, which a form
 *   of another site cannot send (and the SameSite=Strict cookie is not sent cross-site anyway).
 *
 * Refusals are logged with the path only: never a header, a query string, a cookie or a token.
 * A wrong bearer token counts toward the throttle (auth-throttle.ts) once a request, wherever it
 * was compared (GET /api/me too: its answer would tell a right guess from a wrong one), and the
 * refusals' lines go through it (a summary instead of a line each under a flood).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthThrottle } from '../auth-throttle.js';
import { clientOf, isLoopbackAddress, wrongToken } from '../wrong-token.js';
import type { TokenSet } from '../operator-tokens.js';
import { readCookie, SESSION_COOKIE } from './cookies.js';
import type { SessionStore } from './sessions.js';

export interface OperatorAuth {
  tokens: TokenSet;
  sessions: SessionStore;
  throttle: AuthThrottle;
  openOnLoopback: boolean;
  /** The token name of a signed-in caller (bearer token first, then the session cookie). */
  callerOf(request: FastifyRequest): string | undefined;
  canRead(request: FastifyRequest): boolean;
  /** An onRequest/preHandler hook: 401 unless the caller may read. */
  requireRead(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** A preHandler hook: 401 unless signed in, 415 unless the body is JSON. */
  requireChange(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
}

/** Whether a Host header names this machine's loopback (with or without a port). */
function isLoopbackHostHeader(host: string | undefined): boolean {
  if (host === undefined) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  return name.toLowerCase() === 'localhost' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}

/** The path of a request without its query string (which might carry something secret by mistake). */
export function pathOf(request: FastifyRequest): string {
  return request.url.split('?', 1)[0] ?? request.url;
}

export function createOperatorAuth(options: {
  tokens: TokenSet;
  sessions: SessionStore;
  openOnLoopback: boolean;
  throttle: AuthThrottle;
}): OperatorAuth {
  const { tokens, sessions, throttle } = options;
  const counted = new WeakSet<FastifyRequest>();
  const callerOf = (request: FastifyRequest): string | undefined => {
    const bearer = request.headers.authorization;
    if (bearer === undefined) return sessions.nameOf(readCookie(request.headers.cookie, SESSION_COOKIE));
    const name = tokens.authenticate(bearer);
    if (name === undefined && !counted.has(request)) {
      counted.add(request);
      throttle.failed(wrongToken(request, bearer));
    }
    return name;
  };
  const refuse = (request: FastifyRequest, reply: FastifyReply, why: string): FastifyReply => {
    throttle.refused({ address: clientOf(request), method: request.method, path: pathOf(request), why });
    return reply
      .code(401)
      .header('www-authenticate', 'Bearer')
      .header('cache-control', 'no-store')
      .send({ error: `${why}: sign in, or send Authorization: Bearer <token>` });
  };
  // The socket's address, not request.ip: no proxy header can make a remote caller look local.
  const fromLoopback = (request: FastifyRequest): boolean =>
    isLoopbackAddress(request.raw.socket.remoteAddress) && isLoopbackHostHeader(request.headers.host);
  const canRead = (request: FastifyRequest): boolean =>
    callerOf(request) !== undefined || (options.openOnLoopback && fromLoopback(request) && request.headers.authorization === undefined);

  return {
    tokens,
    sessions,
    throttle,
    openOnLoopback: options.openOnLoopback,
    callerOf,
    canRead,
    async requireRead(request, reply) {
      if (canRead(request)) return undefined;
      return refuse(request, reply, request.headers.authorization === undefined ? 'not signed in' : 'wrong bearer token');
    },
    async requireChange(request, reply) {
      if (callerOf(request) === undefined)
        return refuse(
          request,
          reply,
          request.headers.authorization === undefined ? 'a change needs a token or a session' : 'wrong bearer token',
        );
      const type = request.headers['content-type'] ?? '';
      if (!/^application\/json\s*(;|$)/i.test(type)) {
        return reply.code(415).header('cache-control', 'no-store').send({ error: 'send the body as content-type: application/json' });
      }
      return undefined;
    },
  };
}
