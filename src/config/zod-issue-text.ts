/**
 * Turning zod issues into messages a person editing a YAML file can act on: the keys an object
 * accepts (an unknown key names the closest), and a union that fails says what each form expected.
 */
import { z } from 'zod';

/** The schema inside wrappers that do not change which keys an object accepts. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (let depth = 0; depth < 10; depth += 1) {
    // `.prefault({})` wraps most sections of the daemon's config (risk, webhook, ...): without it
    // here a typo under them got no "did you mean".
    if (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable ||
      current instanceof z.ZodDefault ||
      current instanceof z.ZodPrefault
    ) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.in as z.ZodType;
    } else {
      return current;
    }
  }
  return current;
}

/** Every object schema `path` can lead to (several when a union is on the way). */
function objectsAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): z.ZodObject[] {
  const node = unwrap(schema);
  if (node instanceof z.ZodUnion) {
    return (node.options as z.ZodType[]).flatMap((option) => objectsAt(option, path));
  }
  if (path.length === 0) return node instanceof z.ZodObject ? [node] : [];
  const [head, ...rest] = path;
  if (node instanceof z.ZodObject && typeof head === 'string') {
    const child = (node.shape as Record<string, z.ZodType>)[head];
    return child ? objectsAt(child, rest) : [];
  }
  if (node instanceof z.ZodArray && typeof head === 'number') return objectsAt(node.element as z.ZodType, rest);
  if (node instanceof z.ZodRecord) return objectsAt(node.valueType as z.ZodType, rest);
  return [];
}

/** The keys an object at `path` accepts, for "did you mean" on an unknown key. */
export function knownKeysAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  return [...new Set(objectsAt(schema, path).flatMap((object) => Object.keys(object.shape)))];
}

/** The message for one issue (not unknown keys, which are reported key by key). */
export function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_union' && issue.message === 'Invalid input' && issue.errors.length > 0) {
    const forms = issue.errors.map((alternative) => alternative[0]?.message ?? 'invalid').join('; or ');
    return `does not match any allowed form: ${forms}`;
  }
  return issue.message;
}
