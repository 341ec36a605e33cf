/**
 * Whether dist/ holds the compiled form of the sources as they are now. `npm run build` writes a
 * hash of everything the build reads from this checkout (every file under src/, the TypeScript
 * and the dashboard's files it copies as they are, STATIC_FOLDERS; and the tsconfig files) to
 * dist/source-stamp.txt; bin/lendbot.js runs dist/ only when that hash still matches, so a
 * stale build never runs in a development checkout. An installed image has no src/: there the
 * compiled code is all there is, and it runs.
 *
 * Plain JavaScript: it runs before any TypeScript loader.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const STAMP_FILE = 'dist/source-stamp.txt';
export const ENTRY_FILE = 'dist/cli/main.js';
const COMPILER_INPUTS = ['tsconfig.json', 'tsconfig.build.json'];
/** Folders of src/ the compiler does not read but dist/ needs: copied as they are, under the same path. */
export const STATIC_FOLDERS = ['operator/dashboard/assets'];

/** The checkout this file belongs to. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A hash of every file under src/ (names and contents; STATIC_FOLDERS included) and the compiler settings. */
export function sourceStamp(root = ROOT) {
  const files = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
  files.push(...COMPILER_INPUTS.map((name) => join(root, name)).filter((file) => existsSync(file)));
  const hash = createHash('sha256');
  for (const file of files.map((f) => relative(root, f)).sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** 'fresh': dist/ matches src/; 'installed': no src/, only dist/; 'stale' or 'missing' otherwise. */
export function distState(root = ROOT) {
  if (!existsSync(join(root, ENTRY_FILE))) return 'missing';
  if (!existsSync(join(root, 'src'))) return 'installed';
  let stamp;
  try {
    stamp = readFileSync(join(root, STAMP_FILE), 'utf8').trim();
  } catch {
    return 'stale';
  }
  return stamp === sourceStamp(root) ? 'fresh' : 'stale';
}
