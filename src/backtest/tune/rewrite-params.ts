/**
 * Writing tuned values back into a strategy file: only the numbers under `params:` change. yaml's
 * Document API finds each value's place in the source and the text is spliced there, so
 * comments, spacing, key order and flow style stay byte for byte as the author wrote them.
 * Tuning is config-only.
 */
import { isMap, isScalar, parseDocument } from 'yaml';
import type { ParamValues } from './param-space.js';

/** The file text with each param's value replaced; throws RangeError on a param the file lacks. */
export function rewriteParams(text: string, values: Readonly<ParamValues>): string {
  const document = parseDocument(text);
  if (document.errors.length > 0) throw new RangeError(`the strategy file does not parse: ${document.errors[0]?.message ?? ''}`);
  const edits: Array<{ start: number; end: number; value: number }> = [];
  for (const [name, value] of Object.entries(values)) {
    const node: unknown = document.getIn(['params', name], true);
    // Either { value: 600, min: ..., max: ... } or the short form `name: 600`.
    const scalar: unknown = isMap(node) ? node.get('value', true) : node;
    if (!isScalar(scalar) || !scalar.range) throw new RangeError(`param "${name}" has no value in the file`);
    edits.push({ start: scalar.range[0], end: scalar.range[1], value });
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + String(edit.value) + out.slice(edit.end);
  return out;
}
