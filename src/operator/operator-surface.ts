/**
 * The operator surface of a running daemon: the operator listener with the MCP connector, or
 * nothing. It is served only when someone can be let in: with a token (LENDBOT_OPERATOR_TOKEN or
 * a named one), or in the sandbox on loopback, where no real money is at stake and nothing
 * outside this machine can reach it. Anywhere else, without a token it refuses to serve and says
 * so, while the daemon trades on.
 */
import type { Logger } from '../log/logger.js';
import type { AgentContext } from './agent-context.js';
import { ConfirmationCodes } from './confirmation.js';
import { MCP_PATH, mcpRoutes } from './mcp-routes.js';
import type { OperatorConfig } from './operator-config.js';
import { buildOperatorListener, isLoopbackHost, type OperatorListener } from './operator-listener.js';
import { tokensFromEnv } from './operator-tokens.js';

export interface OperatorSurface {
  /** The listener's base URL once started; undefined when nothing is served. */
  url(): string | undefined;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function operatorSurface(options: { config: OperatorConfig; env: Record<string, string | undefined>; context: AgentContext; log: Logger }): OperatorSurface {
  const { config, context, log } = options;
  const tokens = tokensFromEnv(config, options.env);
  for (const name of tokens.inactive) log.warn({ token: name }, `operator token "${name}" is declared in ops.tokens but its variable is unset or empty: it lets nobody in`);
  const anonymous = tokens.size === 0 && context.mode === 'sandbox' && isLoopbackHost(config.host);
  if (tokens.size === 0 && !anonymous) {
    log.warn(
      { host: config.host, mode: context.mode },
      'operator listener not started: no operator token (set LENDBOT_OPERATOR_TOKEN, or a named token of ops.tokens, to serve /mcp); only the sandbox on loopback runs without one',
    );
    return { url: () => undefined, start: async () => undefined, stop: async () => undefined };
  }
  const listener: OperatorListener = buildOperatorListener({
    host: config.host,
    port: config.port,
    log,
    routes: [mcpRoutes({ context, codes: new ConfirmationCodes(context.realClock), tokens, anonymous, realClock: context.realClock, log })],
  });
  let started = false;
  return {
    url: () => (started ? listener.url() : undefined),
    async start() {
      try {
        await listener.listen();
      } catch (error) {
        // The sandbox's connector is a convenience (a second `npm start`, a busy 8081): trade on
        // without it. With a token someone relies on it, so a busy port stops the daemon.
        if (!anonymous || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
        log.warn({ host: config.host, port: config.port }, `operator listener not started: port ${config.port} is in use (set LENDBOT_OPS_PORT)`);
        return;
      }
      started = true;
      log.info(
        { url: `${listener.url()}${MCP_PATH}`, tokens: anonymous ? 'none (sandbox on loopback)' : tokens.names },
        'operator listener started: MCP agent connector at /mcp',
      );
    },
    async stop() {
      if (!started) return;
      started = false;
      await listener.close();
    },
  };
}
