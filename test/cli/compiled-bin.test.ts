/**
 * bin/lendbot.js runs the compiled dist/ only when `npm run build` made it from the sources as
 * they are now (or when there are no sources: an installed image), and otherwise the sources
 * through tsx: a stale dist/ never runs. Checked on a miniature checkout whose dist/ and src/
 * entry points say which one ran.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript without types (it runs before any TypeScript loader)
import { distState, sourceStamp } from '../../bin/source-stamp.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'lendbot-bin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const state = distState as (root: string) => string;
const stamp = sourceStamp as (root: string) => string;

function write(file: string, text: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
}

/** A checkout with the real bin/, sources that print "sources" and a dist/ that prints "dist". */
function checkout(name: string): string {
  const root = join(dir, name);
  mkdirSync(join(root, 'bin'), { recursive: true });
  for (const file of ['lendbot.js', 'source-stamp.js']) copyFileSync(join(ROOT, 'bin', file), join(root, 'bin', file));
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  write(join(root, 'package.json'), '{ "type": "module" }\n');
  write(join(root, 'tsconfig.json'), '{}\n');
  write(join(root, 'src/cli/main.ts'), "const from: string = 'sources';\nconsole.log(from);\n");
  write(join(root, 'dist/cli/main.js'), "console.log('dist');\n");
  return root;
}

const run = (root: string): string => execFileSync(process.execPath, [join(root, 'bin/lendbot.js')], { encoding: 'utf8' }).trim();

describe('bin/lendbot.js', () => {
  let n = 0;
  let root = '';
  beforeEach(() => {
    n += 1;
    root = checkout(`c${n}`);
  });

  it('runs the sources when dist/ was never stamped by a build', () => {
    expect(state(root)).toBe('stale');
    expect(run(root)).toBe('sources');
  });

  it('runs dist/ when its stamp matches the sources', () => {
    write(join(root, 'dist/source-stamp.txt'), `${stamp(root)}\n`);
    expect(state(root)).toBe('fresh');
    expect(run(root)).toBe('dist');
  });

  it('runs the sources again once a source file changes, is added or the compiler settings change', () => {
    write(join(root, 'dist/source-stamp.txt'), `${stamp(root)}\n`);
    write(join(root, 'src/cli/main.ts'), "const from: string = 'sources';\nconsole.log(from); // edited\n");
    expect(run(root)).toBe('sources');
    write(join(root, 'dist/source-stamp.txt'), `${stamp(root)}\n`);
    write(join(root, 'src/new-module.ts'), 'export const x = 1;\n');
    expect(run(root)).toBe('sources');
    write(join(root, 'dist/source-stamp.txt'), `${stamp(root)}\n`);
    write(join(root, 'tsconfig.json'), '{ "compilerOptions": {} }\n');
    expect(run(root)).toBe('sources');
  });

  it('runs the sources when there is no dist/', () => {
    rmSync(join(root, 'dist'), { recursive: true });
    expect(state(root)).toBe('missing');
    expect(run(root)).toBe('sources');
  });

  it('runs dist/ where there are no sources (an installed image)', () => {
    rmSync(join(root, 'src'), { recursive: true });
    expect(state(root)).toBe('installed');
    expect(run(root)).toBe('dist');
  });
});
