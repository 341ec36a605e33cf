/**
 * The operator surface of a running daemon: the operator listener with the dashboard, the JSON
 * API, /metrics and the MCP connector, or nothing.
 *
 * With a token (LENDBOT_OPERATOR_TOKEN or a named one) it always serves. Without any it serves
 * only on loopback: the read-only dashboard of this machine (ops.open_on_loopback), where no
 * change can be made for want of a token; /mcp then answers 401, except in the sandbox, whose
 * connector stays open to this machine as before (no real money is at stake). On any other host
 * without a token it refuses to serve and says so, while the daemon trades on.
 */
import type { Logger } from '../log/logger.js';
import { ConfigurationError } from '../domain/index.js';
import type { MetricsScrape } from '../ops/ops-routes.js';
import { DASHBOARD_URL_KEY } from '../store/index.js';
import type { AgentContext } from './agent-context.js';
import type { ApiRoutes } from './api/api-deps.js';
import { operatorApiRoutes } from './api/api-routes.js';
import { createOperatorAuth } from './api/operator-auth.js';
import { SessionStore } from './api/sessions.js';
import { AuthThrottle } from './auth-throttle.js';
import { authThrottleRoutes } from './auth-throttle-routes.js';
import { ConfirmationCodes } from './confirmation.js';
import { dashboardRoutes } from './dashboard/dashboard-routes.js';
import { MCP_PATH, mcpRoutes } from './mcp-routes.js';
import type { OperatorConfig } from './operator-config.js';
import { buildOperatorListener, isLoopbackHost, type OperatorListener } from './operator-listener.js';
import { tokensFromEnv, type WeakToken } from './operator-tokens.js';

export interface OperatorSurface {
  /** The listener's base URL once started; undefined when nothing is served. */
  url(): string | undefined;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface OperatorSurfaceOptions {
  config: OperatorConfig;
  env: Record<string, string | undefined>;
  context: AgentContext;
  log: Logger;
  /** The daemon's Prometheus scrape, served at GET /metrics. */
  metrics?: MetricsScrape | undefined;
  /** The routes the wings add to the API. */
  apiRoutes?: readonly ApiRoutes[] | undefined;
}

export function operatorSurface(options: OperatorSurfaceOptions): OperatorSurface {
  const { config, context, log } = options;
  const tokens = tokensFromEnv(config, options.env);
  for (const name of tokens.inactive)
    log.warn({ token: name }, `operator token "${name}" is declared in ops.tokens but its variable is unset or empty: it lets nobody in`);
  const loopback = isLoopbackHost(config.host);
  refuseWeakTokens(tokens.weak, config.host, loopback, log);
  const anonymousMcp = tokens.size === 0 && context.mode === 'sandbox' && loopback;
  if (tokens.size === 0 && !loopback) {
    log.warn(
      { host: config.host, mode: context.mode },
      'operator listener not started: no operator token (set LENDBOT_OPERATOR_TOKEN, or a named token of ops.tokens); without one it serves only on loopback',
    );
    return {
      url: () => undefined,
      start: async () => recordDashboardUrl(context, ''),
      stop: async () => undefined,
    };
  }
  const throttle = new AuthThrottle(context.realClock, log);
  const auth = createOperatorAuth({
    tokens,
    sessions: new SessionStore(context.realClock),
    openOnLoopback: config.open_on_loopback,
    throttle,
  });
  const listener: OperatorListener = buildOperatorListener({
    host: config.host,
    port: config.port,
    log,
    trustedProxies: config.trusted_proxies,
    routes: [
      // First: it answers 429 before any other group compares a token.
      authThrottleRoutes(throttle, tokens),
      mcpRoutes({
        context,
        codes: new ConfirmationCodes(context.realClock),
        tokens,
        anonymous: anonymousMcp,
        sessionsPerToken: config.mcp_sessions_per_token,
        throttle,
        realClock: context.realClock,
        log,
      }),
      operatorApiRoutes({ context, auth, reportsDir: config.reports_dir, metrics: options.metrics, log, apiRoutes: options.apiRoutes }),
      dashboardRoutes(),
    ],
  });
  let started = false;
  return {
    url: () => (started ? listener.url() : undefined),
    async start() {
      // A port another program holds stops the daemon (the caller names the port and its
      // setting): a dashboard silently missing led people to someone else's on that port.
      await listener.listen();
      started = true;
      recordDashboardUrl(context, config.public_url ?? listener.url());
      const access =
        tokens.size > 0
          ? `tokens ${tokens.names.join(', ')}${config.open_on_loopback ? '; read-only without one from this machine' : ''}`
          : config.open_on_loopback
            ? anonymousMcp
              ? "no token: read-only dashboard and the sandbox's MCP connector, from this machine"
              : 'no token: read-only, from this machine (set LENDBOT_OPERATOR_TOKEN to pause, resume or use /mcp)'
            : 'no token and ops.open_on_loopback false: nothing but the sign-in page answers';
      log.info(
        {
          url: listener.url(),
          dashboard: `${listener.url()}/`,
          mcp: `${listener.url()}${MCP_PATH}`,
          tokens: anonymousMcp ? 'none (sandbox on loopback)' : tokens.names,
          access,
        },
        'operator listener started: dashboard, API and /metrics, MCP agent connector at /mcp',
      );
    },
    async stop() {
      if (!started) return;
      started = false;
      recordDashboardUrl(context, '');
      await listener.close();
    },
  };
}

/** Where the links to proposals point (src/proposals/proposal-link.ts); '' while no dashboard is served. */
function recordDashboardUrl(context: AgentContext, url: string): void {
  context.store.state.set(DASHBOARD_URL_KEY, url, context.realClock.now());
}

/**
 * A weak token (operator-tokens.ts, tokenWeakness) is refused when the listener binds beyond
 * loopback, where anyone on the network may guess; on loopback it is a warning. The variable is
 * named, never the value.
 */
function refuseWeakTokens(weak: readonly WeakToken[], host: string, loopback: boolean, log: Logger): void {
  if (weak.length === 0) return;
  const how = 'use at least 24 random characters, e.g. openssl rand -hex 32';
  if (!loopback) {
    const which = weak.map((token) => `${token.variable} ${token.problem}`).join('; ');
    throw new ConfigurationError(`operator token too weak for ops.host ${host}, which is not loopback: ${which}; ${how}`);
  }
  for (const token of weak)
    log.warn(
      { variable: token.variable },
      `operator token ${token.variable} ${token.problem}: weak, accepted only because ops.host is loopback; ${how}`,
    );
}
