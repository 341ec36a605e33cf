/**
 * `/mcp` on the operator listener: MCP over streamable HTTP, behind bearer tokens.
 *
 * Session mode, not stateless: confirmation by elicitation is a request from the server to the
 * client in the middle of a tool call, and the client's answer comes back as another POST, which
 * must reach the same server object. Each session belongs to the token that opened it (a request
 * for it with another token is told the session does not exist); idle sessions end after 30 min.
 *
 * Every request without a valid token gets 401 with an empty body (and the WWW-Authenticate
 * header HTTP requires), before anything else is looked at. Tokens are never logged.
 */
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import type { AgentContext } from './agent-context.js';
import type { ConfirmationCodes } from './confirmation.js';
import type { OperatorApp, OperatorRoutes } from './operator-listener.js';
import type { TokenSet } from './operator-tokens.js';

export const MCP_PATH = '/mcp';
/** The caller's name when the sandbox on loopback runs without any token. */
export const ANONYMOUS_SANDBOX_CALLER = 'sandbox';
const SESSION_IDLE_MS = 30 * 60_000;
const MAX_SESSIONS = 64;

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

export function mcpRoutes(options: McpRoutesOptions): OperatorRoutes {
  const { context, codes, tokens, log, realClock } = options;
  const sessions = new Map<string, Session>();
  let sweeper: NodeJS.Timeout | undefined;

  const endSession = async (id: string): Promise<void> => {
    const session = sessions.get(id);
    if (session === undefined) return;
    sessions.delete(id);
    await session.server.close().catch((error: unknown) => log.warn({ err: error }, 'MCP session did not close cleanly'));
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
          const name = options.anonymous ? ANONYMOUS_SANDBOX_CALLER : tokens.authenticate(request.headers.authorization);
          if (name === undefined) {
            log.warn({ remoteAddress: request.ip, path: request.url }, 'operator request refused: missing or wrong bearer token');
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
          if (!isInitializeRequest(request.body)) return rpcError(reply, 400, 'No session: send initialize first, without an Mcp-Session-Id header');
          if (sessions.size >= MAX_SESSIONS) return rpcError(reply, 503, `Too many sessions (${MAX_SESSIONS}); close one or retry later`);
          const tokenName = callerOf.get(request) ?? ANONYMOUS_SANDBOX_CALLER;
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
              ...(options.anonymous ? { enableDnsRebindingProtection: true, allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`] } : {}),
            }),
          };
          session.transport.onclose = () => {
            const id = session.transport.sessionId;
            if (id !== undefined) sessions.delete(id);
          };
          await session.server.connect(session.transport);
          return handle(request, reply, session);
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
