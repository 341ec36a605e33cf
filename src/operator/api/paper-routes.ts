/**
 * `GET /api/paper`: a dry run's paper book (docs/daemon.md, "Paper book"): the summary the
 * overview carries (the one computation, ops/paper-book-figures.ts) and the newest paper offers,
 * each with its modelled acceptance, repayment and expected profit and what became of its
 * request. Every modelled figure is named so.
 */
import { z } from 'zod';
import { readPaperBook } from '../../ops/paper-book-figures.js';
import { PAPER_BOOK_NOTE, paperBookJson, paperOfferJson } from '../../ops/paper-book-view.js';
import type { OperatorApp } from '../operator-listener.js';
import { parseOr400, type ApiDeps } from './api-deps.js';

const paperQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export function registerPaperRoutes(api: OperatorApp, deps: ApiDeps): void {
  const { store, dryRun, clock, limits } = deps.context;
  api.get('/paper', async (request, reply) => {
    const query = parseOr400(paperQuery, request.query, reply);
    if (query === undefined) return reply;
    return reply.header('cache-control', 'no-store').send({
      basis: 'modelled',
      note: PAPER_BOOK_NOTE,
      dry_run: dryRun,
      book: paperBookJson(readPaperBook(store, clock.now(), limits())),
      offers: store.paper.recent(query.limit).map(paperOfferJson),
    });
  });
}
