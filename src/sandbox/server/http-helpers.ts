/** What the sandbox's routes share: pagination (marketplace 2.1), ids, body fields and refusals. */
import type { FastifyRequest } from 'fastify';
import type { Refusal } from '../offer-rules.js';

/** Items per page (the spec does not show the real page size). */
export const PAGE_SIZE = 20;

export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(JSON.stringify(body));
  }
}

export function notFound(): HttpRefusal {
  return new HttpRefusal(404, { detail: 'Not found.' });
}

/** Answers a market refusal with its status and `{detail}` or `{message}` body. */
export function refusalError(refusal: Refusal): HttpRefusal {
  return new HttpRefusal(refusal.status, { [refusal.key]: refusal.text });
}

/** The query of a request as URLSearchParams (repeated keys kept). */
export function queryOf(request: FastifyRequest): URLSearchParams {
  const index = request.url.indexOf('?');
  return new URLSearchParams(index === -1 ? '' : request.url.slice(index + 1));
}

/** The URL the client addressed, for links and the URL signing mode. */
export function fullUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.headers.host ?? request.hostname}${request.url}`;
}

/** A path parameter that must be a positive integer; anything else is a 404 like the service's router. */
export function idParam(request: FastifyRequest, name: string): number {
  const value = (request.params as Record<string, string | undefined>)[name] ?? '';
  if (!/^\d{1,15}$/.test(value)) throw notFound();
  return Number(value);
}

/** The JSON body as a record (an absent or non-object body is empty). */
export function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** A body id field: a positive integer or its decimal text. */
export function positiveIntField(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) && Number(value) > 0) return Number(value);
  return undefined;
}

/**
 * One page of `items` in the envelope of marketplace 2.1, with absolute `next`/`previous` links; only the
 * page's items are rendered into resources.
 */
export function paginate<T>(request: FastifyRequest, items: readonly T[], render: (page: T[]) => unknown[]): Record<string, unknown> {
  const query = queryOf(request);
  const pageText = query.get('page') ?? '1';
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  if (!/^\d+$/.test(pageText) || Number(pageText) < 1 || Number(pageText) > pages) {
    throw new HttpRefusal(404, { detail: 'Invalid page.' });
  }
  const page = Number(pageText);
  const base = fullUrl(request).split('?')[0] ?? '';
  const link = (n: number): string => {
    const next = new URLSearchParams(query);
    next.set('page', String(n));
    return `${base}?${next.toString()}`;
  };
  return {
    count: items.length,
    next: page < pages ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results: render(items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)),
  };
}
