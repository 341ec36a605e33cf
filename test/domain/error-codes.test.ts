/**
 * The one catalogue of error codes (src/domain/error-codes.ts) is complete and documented: every
 * AppError subclass in src/ is found by reading the source (as the layout tests do), each code it
 * can carry is in the catalogue under that class, nothing stale is left there, and docs/errors.md
 * shows the catalogue as one table, row for row.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCodeEntry } from '../../src/domain/index.js';
import { SRC, sourceFiles } from '../layout/source-graph.js';

interface ClassFound {
  file: string;
  parent: string;
  /** The class's text, from its declaration to the closing brace at the start of a line. */
  body: string;
}

/** Every class of src/ that extends another, by name. */
function classes(): Map<string, ClassFound> {
  const found = new Map<string, ClassFound>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/class (\w+) extends (\w+)[^{]*\{([\s\S]*?)\n\}/g)) {
      found.set(match[1] ?? '', { file, parent: match[2] ?? '', body: match[3] ?? '' });
    }
  }
  return found;
}

/** The AppError subclasses, directly or through another subclass. */
function appErrorClasses(all: Map<string, ClassFound>): string[] {
  const descends = (name: string, seen: Set<string>): boolean => {
    const parent = all.get(name)?.parent;
    if (parent === undefined || seen.has(name)) return false;
    return parent === 'AppError' || descends(parent, new Set([...seen, name]));
  };
  return [...all.keys()].filter((name) => descends(name, new Set()));
}

const LITERALS = /'([A-Z][A-Z0-9_]*)'/g;

/** The codes a class declares: `readonly code = 'X'`, `readonly code: 'X' | 'Y'`, or a union type of its file. */
function codesOf(found: ClassFound): string[] {
  const literal = /readonly code = '([A-Z][A-Z0-9_]*)'/.exec(found.body);
  if (literal) return [literal[1] ?? ''];
  const typed = /readonly code: ([^;]+);/.exec(found.body)?.[1]?.trim();
  if (typed === undefined) return [];
  if (typed.includes("'")) return [...typed.matchAll(LITERALS)].map((match) => match[1] ?? '');
  const union = new RegExp(`type ${typed} =([\\s\\S]*?')\\s*;`).exec(readFileSync(found.file, 'utf8'))?.[1] ?? '';
  // Only the union's members, not words quoted in its doc comments.
  const members = union.replace(/\/\*[\s\S]*?\*\//g, '');
  return [...members.matchAll(LITERALS)].map((match) => match[1] ?? '');
}

/** Code -> the class that carries it, from the source. */
function codesInSource(): Map<string, string> {
  const all = classes();
  const codes = new Map<string, string>();
  for (const name of appErrorClasses(all)) {
    const found = all.get(name);
    if (found === undefined) continue;
    const own = codesOf(found);
    // A subclass whose code this scan cannot read is a subclass the catalogue cannot be checked for.
    expect(own, `${name} (${found.file}) declares no code this test can read`).not.toEqual([]);
    for (const code of own) codes.set(code, name);
  }
  return codes;
}

/** The rows of docs/errors.md's table: | `CODE` | `Class` | exit | meaning |. */
function documentedRows(): Map<string, ErrorCodeEntry> {
  const doc = readFileSync(fileURLToPath(new URL('../../docs/errors.md', import.meta.url)), 'utf8');
  const rows = new Map<string, ErrorCodeEntry>();
  for (const match of doc.matchAll(/^\| `([A-Z0-9_]+)` \| `(\w+)` \| (\d) \| (.+) \|$/gm)) {
    rows.set(match[1] ?? '', { raisedBy: match[2] ?? '', exitCode: Number(match[3]) as 1 | 2, meaning: match[4] ?? '' });
  }
  return rows;
}

describe('the catalogue of error codes', () => {
  it('holds every code an AppError subclass in src/ carries, under that class, and nothing else', () => {
    const inSource = codesInSource();
    expect(inSource.size).toBeGreaterThan(15);
    const catalogue = new Map(Object.entries(ERROR_CODES).map(([code, entry]) => [code, entry.raisedBy]));
    expect(Object.fromEntries(catalogue)).toEqual(Object.fromEntries(inSource));
  });

  it('is documented in docs/errors.md as one table, row for row', () => {
    const rows = documentedRows();
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(Object.entries(ERROR_CODES).map(([code, entry]) => [code, { ...entry }])));
  });

  it('reads a subclass with a code the catalogue lacks (the scan itself works)', () => {
    const found: ClassFound = { file: '', parent: 'AppError', body: "\n  readonly code = 'NOT_IN_CATALOGUE';\n" };
    expect(codesOf(found)).toEqual(['NOT_IN_CATALOGUE']);
    const union: ClassFound = { file: '', parent: 'AppError', body: "\n  readonly code: 'ONE' | 'TWO';\n" };
    expect(codesOf(union)).toEqual(['ONE', 'TWO']);
  });
});
