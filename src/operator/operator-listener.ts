/**
 * The operator's listener: a fastify instance of its own, apart from the marketplace-facing one
 * (/webhooks, /healthz), on loopback by default (`ops.host`, `ops.port`, LENDBOT_OPS_PORT).
 *
 * Everything an operator reaches is a group of routes registered here before it listens, each one
 * OperatorRoutes in the list operator-surface.ts passes: the MCP agent connector (mcp-routes.ts),
 * the JSON API with /metrics and /reports (api/api-routes.ts), the dashboard (dashboard/).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import type { Logger } from '../log/logger.js';

export type OperatorApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger>;

/** One group of the operator's routes, and what to release when the listener closes. */
export interface OperatorRoutes {
  name: string;
  /** Adds the group's routes (and hooks, in a scope of its own) before the listener listens. */
  register(app: OperatorApp, listener: { address(): { host: string; port: number } }): void;
  /** Runs before the listener closes (e.g. ends MCP sessions so their streams do not hold it open). */
  close?(): Promise<void>;
}

export interface OperatorListener {
  /** The address it listens on once listening (the port is the real one when configured as 0). */
  address(): { host: string; port: number };
  url(): string;
  listen(): Promise<void>;
  close(): Promise<void>;
}

export function buildOperatorListener(options: {
  host: string;
  port: number;
  log: Logger;
  routes: readonly OperatorRoutes[];
  /** Proxies (addresses, CIDR ranges) whose X-Forwarded-For names the client (`request.ip`); none by default. */
  trustedProxies?: readonly string[];
}): OperatorListener {
  const { host, log } = options;
  let port = options.port;
  const app: OperatorApp = fastify<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger>({
    loggerInstance: log,
    // Request lines would add nothing to the tools' own log lines (and never carry headers).
    logController: new LogController({ disableRequestLogging: true }),
    // An MCP client may keep a stream open for as long as it likes: close cuts it.
    forceCloseConnections: true,
    // Only the wrong-token throttle reads request.ip; loopback checks read the socket itself.
    trustProxy: options.trustedProxies !== undefined && options.trustedProxies.length > 0 ? [...options.trustedProxies] : false,
  });
  const address = () => ({ host, port });
  for (const group of options.routes) group.register(app, { address });
  const shownHost = reachableHost(host);
  return {
    address,
    url: () => `http://${shownHost}:${port}`,
    async listen() {
      await app.listen({ host, port: options.port });
      const bound = app.server.address();
      if (bound !== null && typeof bound === 'object') port = bound.port;
    },
    async close() {
      for (const group of options.routes) await group.close?.();
      await app.close();
    },
  };
}

/**
 * The host to put in a URL that reaches a listener bound to `host` from this machine: a wildcard
 * bind (0.0.0.0, ::) is reached on 127.0.0.1; an IPv6 address goes in brackets.
 */
export function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Whether a host name or address is this machine's loopback. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}
