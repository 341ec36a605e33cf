/**
 * Following `next` links (spec 2.1) without following them forever. A chain is refused with
 * MALFORMED_RESPONSE when it
 * - leaves our host (checked by the transport) or loops back to a link already read;
 * - hands out an empty page that still links to a next page;
 * - runs longer than `count` implies: ceil(count / first page size) pages, plus slack for a list
 *   that grows while it is read (2 pages and 10 %), the largest `count` seen counting.
 *
 * Refusing, rather than stopping quietly with what was read, is deliberate: callers such as the
 * offer reconciler read "not listed" as "gone", so a cut list must never look complete.
 */
import { ServiceError } from './errors.js';
import type { CallSpec } from './http-transport.js';
import type { Page, PageIterator } from './marketplace-api.js';

/** Pages allowed beyond what `count` implies: this many, plus PAGE_SLACK_SHARE of the expected. */
export const PAGE_SLACK_PAGES = 2;
export const PAGE_SLACK_SHARE = 0.1;
// The last resort when `count` itself is absurd (a page of one item and a count of a billion).
const MAX_PAGES = 100_000;

/** How many pages a list of `count` items may take at `pageSize` a page, slack included. */
export function pageBudget(count: number, pageSize: number): number {
  const expected = Math.max(1, Math.ceil(count / Math.max(1, pageSize)));
  return Math.min(MAX_PAGES, expected + PAGE_SLACK_PAGES + Math.ceil(expected * PAGE_SLACK_SHARE));
}

function malformed(message: string, link: string): ServiceError {
  return new ServiceError('MALFORMED_RESPONSE', message, { method: 'GET', path: pathOf(link) });
}

function pathOf(link: string): string {
  try {
    const url = new URL(link);
    return url.pathname + url.search;
  } catch {
    return link;
  }
}

/** Yields the first page and every page its `next` chain leads to. */
export async function* followPages<T>(readPage: (call: CallSpec) => Promise<Page<T>>, first: CallSpec): PageIterator<T> {
  const seen = new Set<string>();
  let call = first;
  let firstPageSize: number | undefined;
  let largestCount = 0;
  for (let read = 1; ; read++) {
    const page = await readPage(call);
    yield page;
    if (page.next === null) return;
    // Items that failed validation were on the page too: the size is what the service sent.
    const size = page.items.length + page.issues.length;
    firstPageSize ??= size;
    largestCount = Math.max(largestCount, page.count);
    if (size === 0) throw malformed(`page ${read} is empty but links to a next page; not followed`, page.next);
    const budget = pageBudget(largestCount, firstPageSize);
    if (read >= budget) {
      throw malformed(
        `read ${read} pages, more than count ${largestCount} at ${firstPageSize} a page allows (${budget} with slack); next page not followed`,
        page.next,
      );
    }
    if (seen.has(page.next)) throw malformed(`page link loops back to ${page.next}`, page.next);
    seen.add(page.next);
    call = { method: 'GET', target: page.next, retryClass: 'read' };
  }
}
