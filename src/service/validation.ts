/**
 * Validating the service's answers. A single resource that fails its schema is a
 * MALFORMED_RESPONSE naming the endpoint and the JSON path; in a list, each item is checked on
 * its own so one bad item is reported without hiding the good ones; a schema that throws on an
 * item (it should not) makes that item's issue, never the page's failure.
 */
import type { z } from 'zod';
import { ServiceError, unreadableOutcome } from './errors.js';
import type { CallResult } from './http-transport.js';

/** One list item that failed validation and was left out. */
export interface ItemIssue {
  /** `METHOD /path?query` of the call that returned it. */
  endpoint: string;
  /** Position of the item in the page's `results` (or the plain array). */
  index: number;
  /** The item's `id`, when it had one. */
  itemId?: unknown;
  /** JSON path of the first problem inside the item, e.g. `$.borrower.svc_color`. */
  path: string;
  message: string;
}

/** Items that passed validation and the issues of those that did not. */
export interface ValidatedItems<T> {
  items: T[];
  issues: ItemIssue[];
}

/** `$.a.b[2].c` for a zod issue path. */
function jsonPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`), '$');
}

/** A zod error's first issue, its path as jsonPath writes it, and how many more there are. */
export function firstIssue(error: z.ZodError): { path: string; message: string } {
  const first = error.issues[0];
  if (!first) return { path: '$', message: 'invalid' };
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return { path: jsonPath(first.path), message: first.message + more };
}

type Checked<T> = { ok: true; value: T } | { ok: false; path: string; message: string };

/**
 * safeParse that never throws: a schema's refinement that throws (a bug, or an input nobody
 * thought of) is a finding about this value, at its root, like any other issue.
 */
function check<S extends z.ZodType>(schema: S, value: unknown): Checked<z.infer<S>> {
  try {
    const parsed = schema.safeParse(value);
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, ...firstIssue(parsed.error) };
  } catch (error) {
    return { ok: false, path: '$', message: `could not be checked: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Validates one resource; throws MALFORMED_RESPONSE naming the endpoint and the path. */
export function validateOne<S extends z.ZodType>(schema: S, result: CallResult): z.infer<S> {
  const checked = check(schema, result.body);
  if (checked.ok) return checked.value;
  throw new ServiceError('MALFORMED_RESPONSE', `answer does not match the documented shape at ${checked.path}: ${checked.message}`, {
    method: result.method,
    path: result.path,
    status: result.status,
  });
}

/**
 * Validates the answer to an offer or fund call. A 2xx says the service applied the request, so an
 * answer lendbot cannot read (no body, an id as text, a missing field) is AMBIGUOUS_OUTCOME, to be
 * reconciled, never MALFORMED_RESPONSE, which a caller could take for "nothing happened".
 */
export function validateOutcome<S extends z.ZodType>(schema: S, result: CallResult): z.infer<S> {
  const checked = check(schema, result.body);
  if (checked.ok) return checked.value;
  const why = result.body === null ? 'no body' : `it does not match the documented shape at ${checked.path}: ${checked.message}`;
  throw unreadableOutcome({ method: result.method, path: result.path, status: result.status }, why);
}

/** Validates each item of a list on its own. */
export function validateItems<S extends z.ZodType>(schema: S, items: readonly unknown[], endpoint: string): ValidatedItems<z.infer<S>> {
  const valid: Array<z.infer<S>> = [];
  const issues: ItemIssue[] = [];
  items.forEach((item, index) => {
    // Nothing one item does stops the others: whatever its check finds or throws is its issue.
    const checked = check(schema, item);
    if (checked.ok) {
      valid.push(checked.value);
      return;
    }
    const itemId = item && typeof item === 'object' ? (item as Record<string, unknown>).id : undefined;
    issues.push({ endpoint, index, ...(itemId === undefined ? {} : { itemId }), path: checked.path, message: checked.message });
  });
  return { items: valid, issues };
}

/** A human line for an item issue, as the CLI prints it on stderr. */
export function formatItemIssue(issue: ItemIssue): string {
  const which = issue.itemId === undefined ? `item ${issue.index}` : `item ${issue.index} (id ${String(issue.itemId)})`;
  return `${issue.endpoint}: ${which} left out: ${issue.path}: ${issue.message}`;
}
