/**
 * Loan and statistics math lives on the ground floor, src/math/ (issue 38, "math on the ground"):
 * it imports nothing of src/ but domain, so the engine, the backtest, the sandbox and ops import
 * it downward. Before, `logistic` sat in the engine's score compiler, `wilson` in the backtest's
 * offer statistics, `loanCashFlows` in the backtest's market model, and ops imported the backtest
 * to state a default rate with its interval and to project its loans' instalments.
 * A second copy of one of its functions elsewhere in src/ would let two floors drift apart.
 */
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileGraph, SRC, sourceFiles } from './source-graph.js';

const MATH = `${SRC}${sep}math${sep}`;
const files = sourceFiles(SRC).map((path) => ({ path, name: relative(SRC, path).split(sep).join('/'), text: readFileSync(path, 'utf8') }));
/** File -> the files of src/ it imports, type imports included. */
const graph = fileGraph();
const importsOf = (file: { name: string }): string[] => [...(graph.get(file.name) ?? [])];

/** The functions and constants src/math/ exports, by name. */
function mathNames(): string[] {
  return files
    .filter((file) => file.path.startsWith(MATH))
    .flatMap((file) => [...file.text.matchAll(/^export (?:function|const) (\w+)/gm)].map((match) => match[1] ?? ''));
}

/**
 * ops/ files that still import backtest/, each for a reason other than math: the drift report
 * compares live months with the replay's own expectations (it reads a backtest, by design).
 */
const OPS_BACKTEST_IMPORTS = new Set(['ops/drift/backtest-months.ts -> backtest/index.ts']);

/**
 * The fits' Newton steps use the overflow-safe form of the logistic (e^x / (1 + e^x) below zero),
 * which differs from src/math's in the last bits: kept so fitted files keep their numbers.
 */
const STABLE_FITS = new Set(['backtest/train/logistic-fit.ts', 'backtest/train/take-up-fit.ts']);

describe('src/math, the ground floor of loan and statistics math', () => {
  it('imports nothing of src/ but itself and domain', () => {
    const upward = files
      .filter((file) => file.path.startsWith(MATH))
      .flatMap((file) => importsOf(file).map((target) => `${file.name} -> ${target}`))
      .filter((edge) => !/ -> (math|domain)\//.test(edge));
    expect(upward).toEqual([]);
  });

  it('is the only place its functions are defined (no second copy on another floor)', () => {
    const names = new Set(mathNames());
    expect([...names]).toEqual(
      expect.arrayContaining(['logistic', 'logit', 'wilson', 'rateRatio', 'monthlyPayment', 'paymentFactor', 'loanCashFlows']),
    );
    const copies = files
      .filter((file) => !file.path.startsWith(MATH))
      .flatMap((file) =>
        [...file.text.matchAll(/^(?:export )?(?:function|const) (\w+)\b/gm)]
          .map((match) => match[1] ?? '')
          .filter((name) => names.has(name))
          .map((name) => `${file.name}: ${name}`),
      );
    expect(copies).toEqual([]);
  });

  it('is where log-odds are turned into probabilities and back: no inline logistic or logit elsewhere', () => {
    const inline = /1 \/ \(1 \+ Math\.exp\(-|Math\.log\((\w+) \/ \(1 - \1\)\)/;
    const found = files
      .filter((file) => !file.path.startsWith(MATH) && !STABLE_FITS.has(file.name))
      .flatMap((file) => file.text.split('\n').flatMap((line, i) => (inline.test(line) ? [`${file.name}:${i + 1}`] : [])));
    expect(found).toEqual([]);
  });

  it('is what ops/ imports for its math: ops/ imports backtest/ only where the list above says why', () => {
    const edges = files
      .filter((file) => file.name.startsWith('ops/'))
      .flatMap((file) => importsOf(file).map((target) => `${file.name} -> ${target}`))
      .filter((edge) => edge.includes(' -> backtest/'));
    expect(edges.filter((edge) => !OPS_BACKTEST_IMPORTS.has(edge))).toEqual([]);
  });
});
