/**
 * How deeply a parsed JSON value nests, measured without recursion. JSON.parse copes with any
 * depth that fits in a body, but JSON.stringify (storing the event) and every recursive reader
 * after it overflow the stack at a few thousand levels: a deep event is refused at the door.
 */

/** The deepest nesting a webhook body or token's claims may have; `{"a": {"b": 1}}` nests 2. */
export const MAX_JSON_DEPTH = 32;

/** Whether `value` nests objects and arrays more than `limit` levels (a scalar nests 0). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.value === null || typeof next.value !== 'object') continue;
    const depth = next.depth + 1;
    if (depth > limit) return true;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth });
  }
  return false;
}
