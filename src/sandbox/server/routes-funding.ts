/** Marketplace 4.3: fund an accepted offer (201 `{message}`, 400 `{detail}`). */
import type { FastifyInstance } from 'fastify';
import { FUND_TEXTS } from '../offer-rules.js';
import type { SandboxRuntime } from '../runtime.js';
import { idParam, refusalError } from './http-helpers.js';

export function registerFundingRoutes(app: FastifyInstance, runtime: SandboxRuntime): void {
  app.post('/api/v3/accepted_offers/:id/fund/', async (request, reply) => {
    const outcome = runtime.market.fund(idParam(request, 'id'));
    if (!outcome.ok) throw refusalError(outcome.refusal);
    return reply.code(201).send({ message: FUND_TEXTS.started });
  });
}
