/**
 * The operator listener (dashboard, control API, /metrics, the MCP agent connector), attached to
 * the daemon's built parts in one call, as operations are (src/ops/attach-ops.ts): agents act
 * through the daemon's own client, guard inputs, offer placer and pipeline queue
 * (agent-context.ts, buildAgentContext). The daemon starts and stops the surface with its own.
 */
import type { Logger } from '../log/logger.js';
import type { MetricsScrape } from '../ops/ops-routes.js';
import { buildAgentContext, type AgentContext, type AgentParts, type AgentWings } from './agent-context.js';
import type { ApiRoutes } from './api/api-deps.js';
import type { OperatorConfig } from './operator-config.js';
import { operatorSurface, type OperatorSurface } from './operator-surface.js';

/** What the operator listener reads of the daemon's built parts (src/daemon/daemon-parts.ts, DaemonParts). */
export interface OperatorParts extends AgentParts {
  config: AgentParts['config'] & { ops: OperatorConfig };
  env: Record<string, string | undefined>;
  log: Logger;
}

/**
 * Builds the operator surface and the agents' context, which the proposals wing attaches to;
 * `served`: the scrape operations made (attach-ops.ts) for GET /metrics, and what the wings add.
 */
export function attachOperator(
  parts: OperatorParts,
  served: { metrics: MetricsScrape; wings: AgentWings; apiRoutes: readonly ApiRoutes[] },
): OperatorSurface & { context: AgentContext } {
  const context = buildAgentContext(parts, served.wings);
  const surface = operatorSurface({
    config: parts.config.ops,
    env: parts.env,
    log: parts.log.child({ component: 'operator' }),
    metrics: served.metrics,
    apiRoutes: served.apiRoutes,
    context,
  });
  return { ...surface, context };
}
