/**
 * Validating the service's answers. A single resource that fails its schema is a
 * MALFORMED_RESPONSE naming the endpoint and the JSON path; in a list, each item is checked on
 * its own so one bad item is reported without hiding the good ones.
 */
import type { z } from 'zod';
import { ServiceError } from './errors.js';
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
export function jsonPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`), '$');
}

function describe(error: z.ZodError): { path: string; message: string } {
  const first = error.issues[0];
  if (!first) return { path: '$', message: 'invalid' };
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return { path: jsonPath(first.path), message: first.message + more };
}

/** Validates one resource; throws MALFORMED_RESPONSE naming the endpoint and the path. */
export function validateOne<S extends z.ZodType>(schema: S, result: CallResult): z.infer<S> {
  const parsed = schema.safeParse(result.body);
  if (parsed.success) return parsed.data;
  const { path, message } = describe(parsed.error);
  throw new ServiceError('MALFORMED_RESPONSE', `answer does not match the spec at ${path}: ${message}`, {
    method: result.method,
    path: result.path,
    status: result.status,
  });
}

/** Validates each item of a list on its own. */
export function validateItems<S extends z.ZodType>(
  schema: S,
  items: readonly unknown[],
  endpoint: string,
): ValidatedItems<z.infer<S>> {
  const valid: Array<z.infer<S>> = [];
  const issues: ItemIssue[] = [];
  items.forEach((item, index) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) {
      valid.push(parsed.data);
      return;
    }
    const { path, message } = describe(parsed.error);
    const itemId = item && typeof item === 'object' ? (item as Record<string, unknown>).id : undefined;
    issues.push({ endpoint, index, ...(itemId === undefined ? {} : { itemId }), path, message });
  });
  return { items: valid, issues };
}

/** A human line for an item issue, as the CLI prints it on stderr. */
export function formatItemIssue(issue: ItemIssue): string {
  const which = issue.itemId === undefined ? `item ${issue.index}` : `item ${issue.index} (id ${String(issue.itemId)})`;
  return `${issue.endpoint}: ${which} left out: ${issue.path}: ${issue.message}`;
}
