// The pages a reader follows: the README, CONTRIBUTING and every page under docs/ (for the tests
// that hold what they name to the repository: docs-paths, docs-commands).
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository's root, with a trailing slash. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Each page's path from the root. */
export const DOC_PAGES: readonly string[] = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
