/**
 * Loading a YAML file in three steps: parse keeping node positions, validate with zod, then run
 * cross-field rules on the typed value. Every problem of every step that can run is reported at
 * once as `file:line:col path: message` in one ConfigFileError.
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { z } from 'zod';
import { closestName, didYouMean } from './closest-name.js';
import { ConfigFileError, dottedPath, type ConfigProblem } from './config-file-error.js';
import { parseWithPositions, positionOf, type PositionedDocument } from './yaml-positions.js';
import { issueMessage, knownKeysAt } from './zod-issue-text.js';

/** A problem found by a cross-field rule, located by its path in the document. */
export interface RuleProblem {
  path: ReadonlyArray<PropertyKey>;
  message: string;
}

/** A check over the whole validated value, for rules a schema cannot state (references, order). */
export type CrossFieldRule<T> = (value: T) => RuleProblem[];

/** Parses and validates YAML text; `file` is only used in messages. Throws ConfigFileError. */
export function parseYamlText<S extends z.ZodType>(
  text: string,
  file: string,
  schema: S,
  rules: ReadonlyArray<CrossFieldRule<z.infer<S>>> = [],
): z.infer<S> {
  const positioned = parseWithPositions(text);
  const syntax = positioned.document.errors.map((error): ConfigProblem => {
    const position = positioned.lineCounter.linePos(error.pos[0]);
    return { file, line: position.line, col: position.col, path: '', message: `YAML ${error.message.split('\n')[0] ?? ''}` };
  });
  if (syntax.length > 0) throw new ConfigFileError(file, syntax);

  const data = documentValue(positioned, file);
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ConfigFileError(file, sortProblems(zodProblems(parsed.error, schema, positioned, file)));

  const problems = rules.flatMap((rule) => rule(parsed.data).map((problem) => locate(positioned, file, problem.path, problem.message)));
  if (problems.length > 0) throw new ConfigFileError(file, sortProblems(problems));
  return parsed.data;
}

/**
 * The document as plain data. The yaml library refuses a document whose aliases would expand
 * beyond its limit (a "billion laughs" alias bomb) by throwing while it builds the value: that is
 * a problem of the file, reported like any other, not a crash.
 */
function documentValue(positioned: PositionedDocument, file: string): unknown {
  try {
    return positioned.document.toJS();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ConfigFileError(file, [
      { file, line: 1, col: 1, path: '', message: `YAML cannot be expanded (${why}); use fewer aliases (*name)` },
    ]);
  }
}

/** Reads, parses and validates a YAML file. A missing or unreadable file is a ConfigFileError too. */
export async function loadYamlFile<S extends z.ZodType>(
  path: string,
  schema: S,
  rules: ReadonlyArray<CrossFieldRule<z.infer<S>>> = [],
): Promise<z.infer<S>> {
  return parseYamlText(await readConfigText(path), path, schema, rules);
}

/** The text of a config file, or a ConfigFileError saying why it cannot be read. */
export async function readConfigText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? `file not found${nearbyFile(path)}` : `cannot read file (${code ?? String(error)})`;
    throw new ConfigFileError(path, [{ file: path, line: 1, col: 1, path: '', message: why }]);
  }
}

/**
 * `; did you mean "strategies/balanced.yaml"?` for a path with a typo (`.yml` for `.yaml`, a
 * letter off) when its folder holds a close name; empty when the folder cannot be read.
 */
function nearbyFile(path: string): string {
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return '';
  }
  const closest = closestName(basename(path), names);
  return closest === undefined ? '' : `; did you mean "${join(dirname(path), closest)}"?`;
}

function zodProblems(error: z.ZodError, schema: z.ZodType, positioned: PositionedDocument, file: string): ConfigProblem[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeysAt(schema, issue.path);
      return issue.keys.map((key) => {
        const position = positionOf(positioned, issue.path, key);
        return { file, ...position, path: dottedPath([...issue.path, key]), message: `unknown key "${key}"${didYouMean(key, known)}` };
      });
    }
    return [locate(positioned, file, issue.path, issueMessage(issue))];
  });
}

function locate(positioned: PositionedDocument, file: string, path: ReadonlyArray<PropertyKey>, message: string): ConfigProblem {
  return { file, ...positionOf(positioned, path), path: dottedPath(path), message };
}

function sortProblems(problems: ConfigProblem[]): ConfigProblem[] {
  return problems.sort((a, b) => a.line - b.line || a.col - b.col);
}
