/**
 * Finding where a value sits in a YAML document, so a zod issue path (`filters[2].min`) can be
 * reported at the line and column a user sees in the editor.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';

/** A parsed document that remembers where each node came from. */
export interface PositionedDocument {
  document: Document.Parsed;
  lineCounter: LineCounter;
}

export interface Position {
  line: number;
  col: number;
}

export function parseWithPositions(text: string): PositionedDocument {
  const lineCounter = new LineCounter();
  // uniqueKeys (the default) makes a repeated key an error instead of silently keeping the last.
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  return { document, lineCounter };
}

function offsetOf(node: unknown): number | undefined {
  if (node && typeof node === 'object' && 'range' in node) {
    const range = (node as Node).range;
    if (range) return range[0];
  }
  return undefined;
}

/**
 * The position of the node at `path`, or of its deepest existing ancestor when the path leads
 * to something missing (a required key that is absent is reported on its parent object).
 * With `atKey`, a map entry is reported at its key rather than its value (for unknown keys).
 */
export function positionOf(positioned: PositionedDocument, path: ReadonlyArray<PropertyKey>, atKey?: string): Position {
  let node: unknown = positioned.document.contents;
  let offset = offsetOf(node) ?? 0;
  const steps = atKey === undefined ? path : [...path, atKey];
  for (const [index, segment] of steps.entries()) {
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment));
      if (pair && atKey !== undefined && index === steps.length - 1) {
        next = pair.key;
      } else {
        next = pair?.value;
        // `key:` with no value: point at the key, which is where the user will look.
        if (pair && next === null) next = pair.key;
      }
    } else if (isSeq(node) && typeof segment === 'number') {
      next = node.items[segment];
    }
    const nextOffset = offsetOf(next);
    if (nextOffset === undefined) break;
    node = next;
    offset = nextOffset;
  }
  const { line, col } = positioned.lineCounter.linePos(offset);
  return { line, col };
}
