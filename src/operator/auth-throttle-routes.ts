/**
 * The wrong-token throttle (auth-throttle.ts) on the listener: the first of its route groups, so
 * that a request presenting a token over its limit is answered 429 before any route compares it
 * again. A right token is recognised first and always passes (issue 37, item 5: ten wrong guesses
 * from the operator's address, or from anyone behind the same reverse proxy, once locked the right
 * bearer token and agents' /mcp out for a minute).
 * Who the client is: wrong-token.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pathOf } from './api/operator-auth.js';
import type { AuthThrottle } from './auth-throttle.js';
import type { OperatorRoutes } from './operator-listener.js';
import type { TokenSet } from './operator-tokens.js';
import { wrongToken } from './wrong-token.js';

/** The dashboard's sign-in: its body carries a token. */
const SIGN_IN_PATH = '/api/session';

function tooMany(reply: FastifyReply, wait: number): FastifyReply {
  return reply
    .code(429)
    .header('retry-after', String(wait))
    .header('cache-control', 'no-store')
    .send({ error: `too many wrong tokens: retry in ${wait} s` });
}

/** The sign-in body's token, when it has one (the route itself answers a body without). */
function signInToken(request: FastifyRequest): string | undefined {
  if (request.method !== 'POST' || pathOf(request) !== SIGN_IN_PATH) return undefined;
  const body = request.body;
  if (typeof body !== 'object' || body === null || !('token' in body)) return undefined;
  return typeof body.token === 'string' ? body.token : undefined;
}

export function authThrottleRoutes(throttle: AuthThrottle, tokens: TokenSet): OperatorRoutes {
  let sweeper: NodeJS.Timeout | undefined;
  return {
    name: 'auth-throttle',
    register(app) {
      app.addHook('onRequest', async (request, reply) => {
        const authorization = request.headers.authorization;
        if (authorization === undefined || tokens.authenticate(authorization) !== undefined) return undefined;
        const wait = throttle.retryAfterSeconds(wrongToken(request, authorization));
        return wait === undefined ? undefined : tooMany(reply, wait);
      });
      // The sign-in's token is in its body, parsed by now.
      app.addHook('preValidation', async (request, reply) => {
        const token = signInToken(request);
        if (token === undefined || tokens.identify(token.trim()) !== undefined) return undefined;
        const wait = throttle.retryAfterSeconds(wrongToken(request, token));
        return wait === undefined ? undefined : tooMany(reply, wait);
      });
      // The summary of a window is said even when no refusal follows it.
      sweeper = setInterval(() => throttle.flush(), 60_000);
      sweeper.unref();
    },
    async close() {
      if (sweeper) clearInterval(sweeper);
      throttle.flush(true);
    },
  };
}
