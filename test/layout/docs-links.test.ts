/**
 * The docs as a reader follows them: every Markdown link lands on a file of the repository and,
 * with a `#section`, on a heading of that page; no page cites a file the repository does not have
 * (the marketplace's interface is described in docs/marketplace.md, so nothing points at a
 * document a clone lacks); every page under docs/ can be reached from the README by links; and
 * the README stays short. "marketplace 4.2" in a page or a code comment names a numbered section
 * of docs/marketplace.md, which must exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOC_PAGES, ROOT } from './doc-pages.js';
import { headingSlugs, markdownLinks } from './markdown-links.js';

const README_MAX_LINES = 150;

/** The page's text, read once. */
const texts = new Map<string, string>();
function textOf(page: string): string {
  let text = texts.get(page);
  if (text === undefined) {
    text = readFileSync(join(ROOT, page), 'utf8');
    texts.set(page, text);
  }
  return text;
}

/** A link's target as a path from the root and its anchor; undefined for a web or mail address. */
function resolveLink(page: string, target: string): { path: string; anchor: string | undefined } | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  const hash = target.indexOf('#');
  const file = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const path = file === '' ? page : normalize(join(dirname(page), decodeURIComponent(file))).replace(/\/$/, '');
  return { path, anchor };
}

/** Source files whose comments may cite the marketplace's sections. */
function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) found.push(...sourceFiles(path));
    else if (name.endsWith('.ts')) found.push(path);
  }
  return found;
}

describe('links between the docs', () => {
  it('land on files of the repository and on sections that exist', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of DOC_PAGES) {
      for (const { target, line } of markdownLinks(textOf(page))) {
        const resolved = resolveLink(page, target);
        if (resolved === undefined) continue;
        checked += 1;
        const where = `${page}:${line}: ${target}`;
        if (relative(ROOT, join(ROOT, resolved.path)).startsWith('..')) {
          broken.push(`${where}: outside the repository`);
          continue;
        }
        if (!existsSync(join(ROOT, resolved.path))) {
          broken.push(`${where}: no such file`);
          continue;
        }
        if (resolved.anchor !== undefined && resolved.anchor !== '') {
          if (!resolved.path.endsWith('.md')) broken.push(`${where}: an anchor on a page that is not Markdown`);
          else if (!headingSlugs(textOf(resolved.path)).has(resolved.anchor)) broken.push(`${where}: no section #${resolved.anchor}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(150);
    expect(broken).toEqual([]);
  });

  it('cite nothing outside the repository (the marketplace is described in docs/marketplace.md)', () => {
    const outside: string[] = [];
    // A document or section a clone does not have: the marketplace's specification file, "spec 4.2",
    // "spec part 6", "spec's", a path on the machine that wrote the docs.
    const citation = /\bspec\/|\bspec(?:'s)? (?:part )?\d|\bthe spec\b|\bspec §|\/work\/|\/home\//i;
    for (const page of DOC_PAGES) {
      textOf(page)
        .split('\n')
        .forEach((text, index) => {
          if (citation.test(text)) outside.push(`${page}:${index + 1}: ${text.trim().slice(0, 120)}`);
        });
    }
    expect(outside).toEqual([]);
  });

  it('cite sections of docs/marketplace.md that exist, in the docs and in code comments', () => {
    const sections = new Set<string>();
    for (const [, number = ''] of textOf('docs/marketplace.md').matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)) sections.add(number);
    expect(sections.size).toBeGreaterThan(30);
    const wrong: string[] = [];
    const pages = [...DOC_PAGES, ...sourceFiles('src')];
    for (const page of pages) {
      const cited = /\bmarketplace(?:\.md,?)?(?: part)? \d+(?:\.\d+)?(?:(?:,| and| to|, from) \d+(?:\.\d+)?)*/gi;
      for (const [citation] of textOf(page).matchAll(cited)) {
        for (const [number] of citation.matchAll(/\d+(?:\.\d+)?/g)) {
          if (!sections.has(number)) wrong.push(`${page}: "${citation}": no section ${number}`);
        }
      }
      if (page.startsWith('src/') && /\bspec (?:part )?\d/i.test(textOf(page)))
        wrong.push(`${page}: cites "spec N" (write "marketplace N", a section of docs/marketplace.md)`);
    }
    expect(wrong).toEqual([]);
  });

  it('reach every page under docs/ from the README', () => {
    const seen = new Set<string>(['README.md']);
    const queue = ['README.md'];
    while (queue.length > 0) {
      const page = queue.shift() ?? '';
      for (const { target } of markdownLinks(textOf(page))) {
        const resolved = resolveLink(page, target);
        if (resolved === undefined || !resolved.path.endsWith('.md') || seen.has(resolved.path)) continue;
        if (!existsSync(join(ROOT, resolved.path))) continue;
        seen.add(resolved.path);
        queue.push(resolved.path);
      }
    }
    const unreachable = DOC_PAGES.filter((page) => page.startsWith('docs/') && !seen.has(page));
    expect(unreachable).toEqual([]);
  });

  it('keep the README short', () => {
    const lines = textOf('README.md').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });
});
