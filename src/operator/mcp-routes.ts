/**
 * `/mcp` on the operator listener: MCP over streamable HTTP, behind bearer tokens.
 *
 * Session mode, not stateless: confirmation by elicitation is a request from the server to the
 * client in the middle of a tool call, and the client's answer comes back as another POST, which
 * must reach the same server object. Each session belongs to the token that opened it (a request
 * for it with another token is told the session does not exist); idle sessions end after 30 min.
 *
 * Sessions are capped per token (`ops.mcp_sessions_per_token`), so one token, or one client that
 * never closes its sessions, cannot hold them all: at its cap, the token's session idle longest
 * is ended to make room if it has been idle `EVICT_IDLE_MS`, else the new one is refused (429,
 * with the reason and Retry-After). The operator token's share is kept for it: the other tokens
 * together hold at most `MAX_SESSIONS` less that share.
 *
 * Every request without a valid token gets 401 with an empty body (and the WWW-Authenticate
 * header HTTP requires), before anything else is looked at; a wrong token counts toward the
 * throttle (auth-throttle.ts). Tokens are never logged, nor is the query string.
 */
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import type { AgentContext } from './agent-context.js';
import { pathOf } from './api/operator-auth.js';
import type { AuthThrottle } from './auth-throttle.js';
import { clientOf, wrongToken } from './wrong-token.js';
import type { ConfirmationCodes } from './confirmation.js';
import type { OperatorApp, OperatorRoutes } from './operator-listener.js';
import { OPERATOR_TOKEN_NAME, type TokenSet } from './operator-tokens.js';

export const MCP_PATH = '/mcp';
/** The caller's name when the sandbox on loopback runs without any token. */
const ANONYMOUS_SANDBOX_CALLER = 'sandbox';
const SESSION_IDLE_MS = 30 * 60_000;
const MAX_SESSIONS = 64;
/** A token at its cap gets room by ending its session idle longest, once idle this long. */
const EVICT_IDLE_MS = 5 * 60_000;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  tokenName: string;
  lastSeenMs: number;
}

export interface McpRoutesOptions {
  context: AgentContext;
  codes: ConfirmationCodes;
  tokens: TokenSet;
  /** Only for the sandbox on loopback without any token: requests need no token then. */
  anonymous: boolean;
  /** The most sessions one token may hold at once (ops.mcp_sessions_per_token). */
  sessionsPerToken: number;
  throttle: AuthThrottle;
  /** Real time, for idle sessions. */
  realClock: Clock;
  log: Logger;
}

/**
 * The SDK and the tools load when the first request for `/mcp` arrives, not when the daemon
 * starts: a daemon no agent talks to does not pay their 5-10 MB of resident memory
 * (docs/performance.md, daemon memory).
 */
function loadSdk() {
  return Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('./mcp-server.js'),
  ]).then(([http, types, server]) => ({
    Transport: http.StreamableHTTPServerTransport,
    isInitializeRequest: types.isInitializeRequest,
    createAgentServer: server.createAgentServer,
  }));
}
let sdk: ReturnType<typeof loadSdk> | undefined;

function rpcError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).send({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/** Why a new session for `tokenName` cannot be opened now (and when to retry), or undefined when it can. */
function overCap(
  held: readonly Session[],
  tokenName: string,
  perToken: number,
  nowMs: number,
): { message: string; status: number; retryAfterSeconds?: number } | undefined {
  const own = held.filter((session) => session.tokenName === tokenName);
  if (own.length >= perToken) {
    const idlest = Math.min(...own.map((session) => session.lastSeenMs));
    return {
      status: 429,
      retryAfterSeconds: Math.max(1, Math.ceil((idlest + EVICT_IDLE_MS - nowMs) / 1000)),
      message: `Too many MCP sessions for token "${tokenName}": ${own.length} open, the most one token may hold (ops.mcp_sessions_per_token). Close one (DELETE /mcp with its Mcp-Session-Id) or retry once one has been idle ${EVICT_IDLE_MS / 60_000} minutes`,
    };
  }
  const reserved = tokenName === OPERATOR_TOKEN_NAME ? 0 : Math.min(perToken, MAX_SESSIONS);
  const counted =
    tokenName === OPERATOR_TOKEN_NAME ? held.length : held.filter((session) => session.tokenName !== OPERATOR_TOKEN_NAME).length;
  if (counted >= MAX_SESSIONS - reserved) {
    return {
      status: 503,
      message: `Too many MCP sessions (${held.length} open; ${reserved} of ${MAX_SESSIONS} are kept for the operator token); close one or retry later`,
    };
  }
  return undefined;
}

export function mcpRoutes(options: McpRoutesOptions): OperatorRoutes {
  const { context, codes, tokens, log, realClock, throttle } = options;
  const sessions = new Map<string, Session>();
  /** Sessions whose initialize is under way (not in `sessions` yet): they count toward the caps. */
  const opening = new Set<Session>();
  const held = (): Session[] => [...sessions.values(), ...opening];
  let sweeper: NodeJS.Timeout | undefined;

  const endSession = async (id: string): Promise<void> => {
    const session = sessions.get(id);
    if (session === undefined) return;
    sessions.delete(id);
    await session.server.close().catch((error: unknown) => log.warn({ err: error }, 'MCP session did not close cleanly'));
  };

  /**
   * At its cap, ends the token's session idle longest when it has been idle EVICT_IDLE_MS (a
   * client that forgot to close it), so that a new one has room.
   */
  const endIdlest = async (tokenName: string): Promise<void> => {
    const now = realClock.now();
    const own = [...sessions].filter(([, session]) => session.tokenName === tokenName);
    if (own.length + [...opening].filter((session) => session.tokenName === tokenName).length < options.sessionsPerToken) return;
    const idlest = own.sort(([, a], [, b]) => a.lastSeenMs - b.lastSeenMs)[0];
    if (idlest === undefined || now - idlest[1].lastSeenMs < EVICT_IDLE_MS) return;
    log.info(
      { agent: `agent:${tokenName}`, idleSeconds: Math.round((now - idlest[1].lastSeenMs) / 1000) },
      'MCP session ended to make room for a new one of the same token',
    );
    await endSession(idlest[0]);
  };

  return {
    name: 'mcp',
    register(app: OperatorApp, listener) {
      sweeper = setInterval(() => {
        const now = realClock.now();
        for (const [id, session] of sessions) if (now - session.lastSeenMs > SESSION_IDLE_MS) void endSession(id);
      }, 60_000);
      sweeper.unref();

      void app.register(async (scope) => {
        const callerOf = new WeakMap<FastifyRequest, string>();
        scope.addHook('onRequest', async (request, reply) => {
          const authorization = request.headers.authorization;
          const name = options.anonymous ? ANONYMOUS_SANDBOX_CALLER : tokens.authenticate(authorization);
          if (name === undefined) {
            if (authorization !== undefined) throttle.failed(wrongToken(request, authorization));
            throttle.refused({
              address: clientOf(request),
              method: request.method,
              path: pathOf(request),
              why: authorization === undefined ? 'missing bearer token' : 'wrong bearer token',
            });
            return reply.code(401).header('www-authenticate', 'Bearer').send();
          }
          callerOf.set(request, name);
          return undefined;
        });

        const existing = (request: FastifyRequest): Session | undefined | 'none' => {
          const id = request.headers['mcp-session-id'];
          if (typeof id !== 'string') return 'none';
          const session = sessions.get(id);
          // Another token's session is not this caller's: it does not exist for them.
          if (session === undefined || session.tokenName !== callerOf.get(request)) return undefined;
          session.lastSeenMs = realClock.now();
          return session;
        };

        const handle = async (request: FastifyRequest, reply: FastifyReply, session: Session): Promise<void> => {
          reply.hijack();
          await session.transport.handleRequest(request.raw, reply.raw, request.body);
        };

        scope.post(MCP_PATH, async (request, reply) => {
          const found = existing(request);
          if (found === undefined) return rpcError(reply, 404, 'Session not found; initialize a new one');
          if (found !== 'none') return handle(request, reply, found);
          const { Transport, isInitializeRequest, createAgentServer } = await (sdk ??= loadSdk());
          if (!isInitializeRequest(request.body))
            return rpcError(reply, 400, 'No session: send initialize first, without an Mcp-Session-Id header');
          const tokenName = callerOf.get(request) ?? ANONYMOUS_SANDBOX_CALLER;
          await endIdlest(tokenName);
          // Checked with no wait between it and `opening.add` below.
          const refused = overCap(held(), tokenName, options.sessionsPerToken, realClock.now());
          if (refused !== undefined) {
            log.warn({ agent: `agent:${tokenName}`, sessions: sessions.size }, `MCP session refused: ${refused.message}`);
            if (refused.retryAfterSeconds !== undefined) reply.header('retry-after', String(refused.retryAfterSeconds));
            return rpcError(reply, refused.status, refused.message);
          }
          const { port } = listener.address();
          const session: Session = {
            tokenName,
            lastSeenMs: realClock.now(),
            server: createAgentServer(context, { tokenName }, codes),
            transport: new Transport({
              sessionIdGenerator: () => randomUUID(),
              onsessioninitialized: (id) => {
                sessions.set(id, session);
                log.info({ agent: `agent:${tokenName}`, sessions: sessions.size }, 'MCP session opened');
              },
              onsessionclosed: (id) => {
                sessions.delete(id);
              },
              // Without a token, only a page on this machine's own names may talk to it (DNS rebinding).
              ...(options.anonymous
                ? { enableDnsRebindingProtection: true, allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`] }
                : {}),
            }),
          };
          session.transport.onclose = () => {
            const id = session.transport.sessionId;
            if (id !== undefined) sessions.delete(id);
          };
          // Counted from here, so initializations arriving together cannot all pass the caps.
          opening.add(session);
          try {
            await session.server.connect(session.transport);
            return await handle(request, reply, session);
          } finally {
            opening.delete(session);
          }
        });

        const streamOrEnd = async (request: FastifyRequest, reply: FastifyReply) => {
          const found = existing(request);
          if (found === 'none') return rpcError(reply, 400, 'Mcp-Session-Id header required');
          if (found === undefined) return rpcError(reply, 404, 'Session not found; initialize a new one');
          return handle(request, reply, found);
        };
        scope.get(MCP_PATH, streamOrEnd);
        scope.delete(MCP_PATH, streamOrEnd);
      });
    },
    async close() {
      if (sweeper) clearInterval(sweeper);
      await Promise.all([...sessions.keys()].map((id) => endSession(id)));
    },
  };
}
