/**
 * CONTRIBUTING.md maps the flow to its files: every backticked path under src/ (or test/, bench/,
 * docs/, .ci/) it names exists, and every `name` written in parentheses right after a path is
 * found in that file, so the map cannot silently go stale when code moves.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const guide = readFileSync(`${root}CONTRIBUTING.md`, 'utf8');

const PATH = /`((?:src|test|bench|docs|\.ci)\/[^`\s]*)`/g;
/** A path followed by its symbols: `src/a.ts` (`one`, `Two.three`). */
const PATH_WITH_NAMES = /`(src\/[^`\s]+\.ts)` \(((?:`[\w.]+`(?:, )?)+)\)/g;

describe('CONTRIBUTING.md', () => {
  it('names only paths that exist', () => {
    // A pattern (`docs/*.md`) names a kind of file, not one file.
    const paths = [...guide.matchAll(PATH)].map((match) => match[1] ?? '').filter((path) => !path.includes('*'));
    expect(paths.length).toBeGreaterThan(30);
    expect(paths.filter((path) => !existsSync(`${root}${path}`))).toEqual([]);
  });

  it('names only functions and classes that the named file holds', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const [, path = '', names = ''] of guide.matchAll(PATH_WITH_NAMES)) {
      if (!existsSync(`${root}${path}`)) continue; // reported by the test above
      const text = readFileSync(`${root}${path}`, 'utf8');
      for (const [, name = ''] of names.matchAll(/`([\w.]+)`/g)) {
        checked += 1;
        // `Class.method` is found as the class and the method, each by itself.
        if (!name.split('.').every((part) => new RegExp(`\\b${part}\\b`).test(text))) missing.push(`${path}: ${name}`);
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
