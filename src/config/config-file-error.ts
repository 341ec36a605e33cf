/**
 * What a broken configuration or strategy file produces: every problem at once, each with the
 * file, line and column, the path inside the document and what is wrong, so a user fixes them
 * all in one edit instead of one per run.
 */
import { AppError } from '../domain/index.js';

/** One problem in a file. Line and column are 1-based. */
export interface ConfigProblem {
  file: string;
  line: number;
  col: number;
  /** Dotted path inside the document, e.g. `filters[2].min`; empty for the whole document. */
  path: string;
  message: string;
}

/** `file:line:col path: message` (the path is left out for whole-document problems). */
export function formatProblem(problem: ConfigProblem): string {
  const where = `${problem.file}:${problem.line}:${problem.col}`;
  return problem.path === '' ? `${where} ${problem.message}` : `${where} ${problem.path}: ${problem.message}`;
}

/** A file that could not be read, parsed or validated. The message lists every problem. */
export class ConfigFileError extends AppError {
  override readonly name = 'ConfigFileError';
  readonly code = 'CONFIG_FILE';
  constructor(
    readonly file: string,
    readonly problems: readonly ConfigProblem[],
  ) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(`${file}: ${count}\n${problems.map(formatProblem).join('\n')}`);
  }
}

/** `filters[2].min` for a path of keys and indexes. */
export function dottedPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === 'number') return `${text}[${key}]`;
    return text === '' ? String(key) : `${text}.${String(key)}`;
  }, '');
}
