/** What the operator API's routes work with, and the small helpers they share. */
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { Logger } from '../../log/logger.js';
import type { MetricsScrape } from '../../ops/ops-routes.js';
import type { AgentContext } from '../agent-context.js';
import type { ErrorAnswer } from './api-types.js';
import type { OperatorAuth } from './operator-auth.js';
import type { OperatorApp } from '../operator-listener.js';

export interface ApiDeps {
  context: AgentContext;
  auth: OperatorAuth;
  /** ops.reports_dir as configured. */
  reportsDir: string;
  /** Undefined where no metrics exist (`lendbot mcp` has no daemon): /metrics answers 404 then. */
  metrics?: MetricsScrape | undefined;
  log: Logger;
  /** The routes the wings add under /api, behind the same sign-in (src/daemon/wing-surfaces.ts, WING_API_ROUTES). */
  apiRoutes?: readonly ApiRoutes[] | undefined;
}

/** A group of operator API routes a wing adds. */
export type ApiRoutes = (api: OperatorApp, deps: ApiDeps) => void;

/** The answer of every refusal: the status and one line. */
export function fail(reply: FastifyReply, status: number, error: string): FastifyReply {
  const body: ErrorAnswer = { error };
  return reply.code(status).header('cache-control', 'no-store').send(body);
}

/** A query or body checked by a schema, or a 400 naming the first problem. */
export function parseOr400<T>(schema: z.ZodType<T>, input: unknown, reply: FastifyReply): T | undefined {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
  fail(reply, 400, `${where}${issue?.message ?? 'invalid'}`);
  return undefined;
}
