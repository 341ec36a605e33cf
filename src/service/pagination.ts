/**
 * Following `next` links (marketplace 2.1) without following them forever. A chain is refused with
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
const PAGE_SLACK_PAGES = 2;
const PAGE_SLACK_SHARE = 0.1;
// The last resort when `count` itself is absurd (a page of one item and a count of a billion).
const MAX_PAGES = 100_000;

/** How many pages a list of `count` items may take at `pageSize` a page, slack included. */
function pageBudget(count: number, pageSize: number): number {
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
    call = { method: 'GET', target: page.next, retryClass: 'read', responseKind: first.responseKind };
  }
}

/** Pages a tolerant scan may read beyond what the first answer's `count` implies. */
const SCAN_EXTRA_PAGES = 1;

/** How a tolerant scan went; filled in while it runs. */
export interface ScanProgress {
  /** Pages read so far. */
  pages: number;
  /** The most pages the scan reads: ceil(count / size) of the first answer, plus SCAN_EXTRA_PAGES. */
  bound?: number | undefined;
  /**
   * Why the scan ended before the list's last page: `vanished` (a page after the first answered
   * 404: the list shrank while it was read) or `bound` (it reached `bound` and a `next` remained).
   */
  cut?: { reason: 'vanished' | 'bound'; page: number } | undefined;
}

/**
 * The pages of a list, for a caller that can afford to end early but must never lose what it has
 * read: the poll and the request finder, which decide page by page. Unlike followPages alone,
 * - a 404 on a page after the first ends the scan normally: requests left the list while it was
 *   read, and a Django REST framework service then answers 404 "Invalid page." for the last
 *   page. A 404 on the first page is an error as before;
 * - the scan stops after the pages the FIRST answer's `count` implies, plus SCAN_EXTRA_PAGES, so
 *   a list that grows while it is read cannot keep it going.
 * Either way `progress.cut` says so: the pages read are not the whole list, and callers that read
 * "not listed" as "gone" (the offer reconciler) must not.
 */
export async function* scanPages<T>(pages: PageIterator<T>, progress: ScanProgress): AsyncGenerator<Page<T>, void, undefined> {
  try {
    for (;;) {
      let next: IteratorResult<Page<T>, void>;
      try {
        next = await pages.next();
      } catch (error) {
        if (progress.pages > 0 && error instanceof ServiceError && error.code === 'NOT_FOUND') {
          progress.cut = { reason: 'vanished', page: progress.pages + 1 };
          return;
        }
        throw error;
      }
      if (next.done) return;
      const page = next.value;
      progress.pages += 1;
      if (progress.bound === undefined) {
        const size = page.items.length + page.issues.length;
        progress.bound = Math.max(1, Math.ceil(page.count / Math.max(1, size))) + SCAN_EXTRA_PAGES;
      }
      yield page;
      if (page.next !== null && progress.pages >= progress.bound) {
        progress.cut = { reason: 'bound', page: progress.pages };
        return;
      }
    }
  } finally {
    // Closes the chain whichever way the scan ended (a caller that stops early included): no
    // further page is requested. A no-op when the chain is already over.
    await pages.return();
  }
}
