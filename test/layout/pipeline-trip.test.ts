/**
 * The trip and nothing else (issue 38, item 1): the pipeline is seen -> decide -> guard -> place
 * -> record -> publish, and features attach to it (Pipeline.provide, Pipeline.onDecided) instead of
 * entering through its front door. Read with the TypeScript compiler's parser, so a comment or a
 * string cannot fool the counts:
 *
 * - src/daemon/pipeline.ts imports nothing of ops/, operator/, a wing (messaging/, retrain/, ...) or a
 *   feature the pipeline once called by name (cash position, market learning, shadows, the split book);
 * - `Pipeline.run` is at most 60 lines;
 * - `DaemonParts` (src/daemon/daemon-parts.ts) has at most 15 members.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SRC } from './source-graph.js';

const PIPELINE = join(SRC, 'daemon/pipeline.ts');

/** Folders the pipeline may not import from, and the features' own modules. */
const NOT_FOR_THE_PIPELINE = [
  /^ops\//,
  /^operator\//,
  /^messaging\//,
  /^retrain\//,
  /^proposals\//,
  /^challengers\//,
  /^cash-flow\//,
  /^market-learning\//,
  /^calibration\//,
  /^engine\/pricing\//,
  /^engine\/market\//,
  /^store\/shadow-/,
  /^daemon\/(restored-learners|cash-position)\.ts$/,
];

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** Every module `file` imports or re-exports, `import type` included, relative to src/. */
function importsOf(file: string): string[] {
  return parse(file)
    .statements.flatMap((statement) =>
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier !== undefined
        ? [(statement.moduleSpecifier as ts.StringLiteral).text]
        : [],
    )
    .map((specifier) => relative(SRC, resolve(dirname(file), specifier.replace(/\.js$/, '.ts'))));
}

/** Lines from a node's first token to its last. */
function lineSpan(source: ts.SourceFile, node: ts.Node): number {
  const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
  return source.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1;
}

function find<T extends ts.Node>(node: ts.Node, match: (candidate: ts.Node) => candidate is T): T | undefined {
  if (match(node)) return node;
  return ts.forEachChild(node, (child) => find(child, match));
}

describe('the pipeline', () => {
  it('imports nothing of ops, operator, a wing or a feature', () => {
    const imports = importsOf(PIPELINE);
    expect(imports).toContain('daemon/decision-hooks.ts');
    expect(imports.filter((target) => NOT_FOR_THE_PIPELINE.some((pattern) => pattern.test(target)))).toEqual([]);
  });

  it('runs a request in at most 60 lines (Pipeline.run)', () => {
    const source = parse(PIPELINE);
    const run = find(
      source,
      (node): node is ts.MethodDeclaration =>
        ts.isMethodDeclaration(node) &&
        node.name.getText(source) === 'run' &&
        ts.isClassDeclaration(node.parent) &&
        node.parent.name?.text === 'Pipeline',
    );
    expect(run).toBeDefined();
    expect(lineSpan(source, run!)).toBeLessThanOrEqual(60);
  });
});

describe('the daemon parts', () => {
  it('are at most 15 members (DaemonParts)', () => {
    const source = parse(join(SRC, 'daemon/daemon-parts.ts'));
    const parts = find(
      source,
      (node): node is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(node) && node.name.text === 'DaemonParts',
    );
    expect(parts).toBeDefined();
    expect(parts!.members.length).toBeGreaterThan(5);
    expect(parts!.members.length).toBeLessThanOrEqual(15);
  });
});
