/**
 * `POST /api/pause` and `POST /api/resume`: the dashboard's pause of new offers, through the same
 * protections the agent connector's pause_offers and `lendbot resume` use, so the pause shows in
 * `lendbot status`, /metrics and notifications alike, and every offer meanwhile is a skip with
 * the reason `guard paused: ...`. Both need a signed-in caller and a JSON body (api-routes.ts).
 */
import { z } from 'zod';
import { pauseJson } from '../../ops/protections/index.js';
import type { OperatorApp } from '../operator-listener.js';
import { parseOr400, type ApiDeps } from './api-deps.js';
import type { PauseAnswer } from './api-types.js';

const pauseBody = z.strictObject({ reason: z.string().trim().max(200).optional() });
const resumeBody = z.strictObject({});

export function registerPauseRoutes(api: OperatorApp, deps: ApiDeps): void {
  const { context, auth, log } = deps;
  api.post('/pause', async (request, reply) => {
    const body = parseOr400(pauseBody, request.body, reply);
    if (body === undefined) return reply;
    const caller = auth.callerOf(request) ?? 'operator';
    const who = `the dashboard (${caller})${body.reason ? `: ${body.reason}` : ''}`;
    const { pause, already } = context.protections.pauseByOperator(who);
    log.info({ caller, already }, already ? 'pause asked for while one is in force: kept' : 'new offers paused from the dashboard');
    const answer: PauseAnswer = { pause: pauseJson(pause), already };
    return reply.header('cache-control', 'no-store').send(answer);
  });
  api.post('/resume', async (request, reply) => {
    if (parseOr400(resumeBody, request.body, reply) === undefined) return reply;
    const lifted = context.protections.resume();
    log.info(
      { caller: auth.callerOf(request), lifted: lifted?.kind ?? null },
      lifted ? 'new offers resumed from the dashboard' : 'resume asked for while nothing was paused',
    );
    const answer: PauseAnswer = { pause: null };
    return reply.header('cache-control', 'no-store').send(answer);
  });
}
