/**
 * Signing in and out, and "who am I?": `POST /api/session` trades a token for the session
 * cookie (the dashboard never keeps the token), `DELETE /api/session` ends it, `GET /api/me`
 * says what the caller may do (it answers everyone, so the dashboard knows whether to ask) and,
 * to a reader, which wings' routes are mounted (the dashboard shows only their panels).
 */
import { z } from 'zod';
import type { OperatorApp } from '../operator-listener.js';
import type { ApiDeps } from './api-deps.js';
import { fail, parseOr400 } from './api-deps.js';
import type { MeAnswer } from './api-types.js';
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from './cookies.js';
import { clientOf, wrongToken } from '../wrong-token.js';
import { pathOf } from './operator-auth.js';

const signIn = z.strictObject({ token: z.string().min(1, 'token: the operator token').max(512) });

/** `wingRoutes`: the GET routes the wings mounted, filled as they register after this. */
export function registerSessionRoutes(api: OperatorApp, deps: ApiDeps, wingRoutes: readonly string[]): void {
  const { auth, log } = deps;

  api.get('/me', async (request, reply) => {
    const name = auth.callerOf(request) ?? null;
    const canRead = auth.canRead(request);
    const answer: MeAnswer = {
      signedIn: name !== null,
      name,
      canRead,
      canChange: name !== null,
      wingRoutes: canRead ? [...wingRoutes] : [],
    };
    return reply.header('cache-control', 'no-store').send(answer);
  });

  api.post('/session', async (request, reply) => {
    const body = parseOr400(signIn, request.body, reply);
    if (body === undefined) return reply;
    const name = auth.tokens.identify(body.token.trim());
    if (name === undefined) {
      auth.throttle.failed(wrongToken(request, body.token));
      auth.throttle.refused({
        address: clientOf(request),
        method: request.method,
        path: pathOf(request),
        why: 'sign-in with a wrong token',
      });
      return fail(reply, 401, 'wrong token');
    }
    const session = auth.sessions.open(name);
    log.info({ caller: name }, 'operator signed in');
    return reply
      .code(204)
      .header('set-cookie', sessionCookie(session.id, session.maxAgeSeconds))
      .header('cache-control', 'no-store')
      .send();
  });

  // Signing out needs nothing: it only ends the session the cookie names, and forgets the cookie.
  api.delete('/session', async (request, reply) => {
    auth.sessions.close(readCookie(request.headers.cookie, SESSION_COOKIE));
    return reply.code(204).header('set-cookie', clearedSessionCookie()).header('cache-control', 'no-store').send();
  });
}
