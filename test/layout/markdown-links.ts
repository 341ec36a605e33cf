// What docs-links.test.ts reads from a Markdown page: its links and the anchors its headings get.
// github-slugger is the library for the anchors, but not a dependency; the rule below is GitHub's
// (lower case, punctuation dropped, each space a hyphen, a repeated heading numbered), which the
// pages' existing links were written against.

/** A link of the page: its target and the line it is on. */
export interface MarkdownLink {
  readonly target: string;
  readonly line: number;
}

/** The page's lines outside fenced code blocks, with inline code spans blanked (a link in code is an example). */
function proseLines(text: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let fenced = false;
  text.split('\n').forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (!fenced) lines.push({ text: line.replace(/`[^`]*`/g, '``'), line: index + 1 });
  });
  return lines;
}

/** Every inline link `[text](target)` and image `![alt](target)` outside code. */
export function markdownLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { text: line, line: number } of proseLines(text)) {
    for (const [, target = ''] of line.matchAll(/\]\(<?([^()\s<>]+)>?(?:\s+"[^"]*")?\)/g)) links.push({ target, line: number });
  }
  return links;
}

/** GitHub's anchor for a heading's text. */
export function slugOf(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of every heading of the page, repeated headings numbered `-1`, `-2` as GitHub does. */
export function headingSlugs(text: string): Set<string> {
  const slugs = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const base = slugOf(heading[1] ?? '');
    let slug = base;
    for (let count = 1; slugs.has(slug); count += 1) slug = `${base}-${count}`;
    slugs.add(slug);
  }
  return slugs;
}
