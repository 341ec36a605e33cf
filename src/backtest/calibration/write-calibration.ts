/**
 * Writing a fitted `score.calibration` into a strategy file: the block is spliced into the text
 * (replacing an existing one, else placed before `min_probability`, else at the end of `score:`),
 * so every other line, comment and spacing stays as the author wrote it. yaml's Document API only
 * finds the places. A strategy whose calibration is learned (`method: learned`) keeps it: the fit
 * becomes its `seed`, the map its own loans then keep correcting.
 */
import { isMap, isScalar, parseDocument, type Node, type Pair } from 'yaml';
import type { FittedCalibrationDefinition } from '../../engine/definition/strategy-schema.js';

/** The block's lines, keys at `indent` spaces, under `key` (`calibration`, or a learned one's `seed`). */
function calibrationYaml(calibration: FittedCalibrationDefinition, indent: number, key = 'calibration'): string {
  const pad = ' '.repeat(indent);
  const inner = ' '.repeat(indent + 2);
  const lines = [`${pad}${key}:`, `${inner}method: ${calibration.method}`];
  if (calibration.method === 'platt') {
    lines.push(`${inner}a: ${String(calibration.a)}`, `${inner}b: ${String(calibration.b)}`);
  } else {
    lines.push(`${inner}points:   # [score probability, calibrated probability]`);
    for (const [p, q] of calibration.points) lines.push(`${inner}  - [${p}, ${q}]`);
  }
  if (calibration.description !== undefined) lines.push(`${inner}description: ${JSON.stringify(calibration.description)}`);
  return `${lines.join('\n')}\n`;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset just past the line holding `offset - 1` (past its newline). */
function lineEnd(text: string, offset: number): number {
  const newline = text.indexOf('\n', Math.max(0, offset - 1));
  return newline < 0 ? text.length : newline + 1;
}

function keyOf(pair: Pair): string | undefined {
  return isScalar(pair.key) ? String(pair.key.value) : undefined;
}

/** The text with `calibration` as its score's calibration; throws RangeError when it cannot be placed. */
export function withCalibration(text: string, calibration: FittedCalibrationDefinition): string {
  const document = parseDocument(text);
  if (document.errors.length > 0) throw new RangeError(`the strategy file does not parse: ${document.errors[0]?.message ?? ''}`);
  const score: unknown = document.get('score', true);
  if (!isMap(score) || score.flow === true || score.items.length === 0) {
    throw new RangeError(
      `score: is not a block map in the strategy file; add this under score: by hand:\n${calibrationYaml(calibration, 2)}`,
    );
  }
  const items = score.items as Array<Pair<Node, Node>>;
  const firstKey = items[0]?.key;
  const keyStart = firstKey?.range?.[0] ?? 0;
  const indent = keyStart - lineStart(text, keyStart);
  const block = calibrationYaml(calibration, indent);
  const existing = items.find((pair) => keyOf(pair) === 'calibration');
  if (existing !== undefined && isMap(existing.value) && existing.value.flow !== true && existing.value.get('method') === 'learned')
    return withSeed(text, existing.value.items as Array<Pair<Node, Node>>, calibration);
  if (existing !== undefined) {
    const start = lineStart(text, existing.key?.range?.[0] ?? 0);
    const end = lineEnd(text, existing.value?.range?.[1] ?? 0);
    return text.slice(0, start) + block + text.slice(end);
  }
  const before = items.find((pair) => keyOf(pair) === 'min_probability');
  if (before !== undefined) {
    const at = lineStart(text, before.key?.range?.[0] ?? 0);
    return text.slice(0, at) + block + text.slice(at);
  }
  const last = items[items.length - 1];
  const at = lineEnd(text, last?.value?.range?.[1] ?? last?.key?.range?.[1] ?? 0);
  const joined = at > 0 && text[at - 1] !== '\n' ? '\n' : '';
  return text.slice(0, at) + joined + block + text.slice(at);
}

/** The text with `calibration` as the seed of a learned calibration whose map's items are `items`. */
function withSeed(text: string, items: Array<Pair<Node, Node>>, calibration: FittedCalibrationDefinition): string {
  const keyStart = items[0]?.key?.range?.[0] ?? 0;
  const block = calibrationYaml(calibration, keyStart - lineStart(text, keyStart), 'seed');
  const seed = items.find((pair) => keyOf(pair) === 'seed');
  if (seed !== undefined) {
    const start = lineStart(text, seed.key?.range?.[0] ?? 0);
    return text.slice(0, start) + block + text.slice(lineEnd(text, seed.value?.range?.[1] ?? 0));
  }
  const last = items[items.length - 1];
  const at = lineEnd(text, last?.value?.range?.[1] ?? last?.key?.range?.[1] ?? 0);
  const joined = at > 0 && text[at - 1] !== '\n' ? '\n' : '';
  return text.slice(0, at) + joined + block + text.slice(at);
}
