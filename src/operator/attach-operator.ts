/**
 * The operator listener (dashboard, control API, /metrics, the MCP agent connector), attached to
 * the daemon's built parts in one call, as operations are (src/ops/attach-ops.ts): agents act
 * through the daemon's own client, guard inputs, offer placer and pipeline queue
 * (agent-context.ts, buildAgentContext). The daemon starts and stops the surface with its own.
 */
import type { Logger } from '../log/logger.js';
import type { MetricsScrape } from '../ops/ops-routes.js';
import { buildAgentContext, type AgentParts, type AgentTools, type ApiRoutes } from './agent-context.js';
import type { OperatorConfig } from './operator-config.js';
import { operatorSurface, type OperatorSurface } from './operator-surface.js';
import type { RequestHolds } from './proposals/request-holds.js';

/** What the operator listener reads of the daemon's built parts (src/daemon/daemon-parts.ts, DaemonParts). */
export interface OperatorParts extends AgentParts {
  config: AgentParts['config'] & { ops: OperatorConfig };
  env: Record<string, string | undefined>;
  log: Logger;
}

/**
 * Builds the operator surface; `served.metrics` is the scrape operations made (attach-ops.ts) for GET /metrics, `served.tools`
 * and `served.routes` the wings' agent tools and API routes. `requestHolds`: the sandbox's hold on a request while a proposal waits (proposals/request-holds.ts); absent live.
 */
export function attachOperator(
  parts: OperatorParts,
  served: { metrics: MetricsScrape; tools: readonly AgentTools[]; routes: readonly ApiRoutes[] },
  requestHolds?: RequestHolds,
): OperatorSurface {
  return operatorSurface({
    config: parts.config.ops,
    env: parts.env,
    log: parts.log.child({ component: 'operator' }),
    metrics: served.metrics,
    context: buildAgentContext(parts, { tools: served.tools, routes: served.routes, requestHolds }),
  });
}
