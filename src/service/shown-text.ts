/**
 * What of an HTTP exchange a person may be shown: an address without its password, and an
 * answer's body cut to one line, where a web page (a proxy's 404, another server's front page)
 * is named by its title instead of pouring its markup into the line (issue 36, item 4: doctor
 * printed a base URL's `user:password@`, and a whole HTML page as the reason of a failure).
 */

/** Characters of an answer's text kept in a line. */
const SNIPPET_LENGTH = 200;

/** `url` with any password replaced by `***` (the user name stays: it helps to tell two addresses apart). */
export function shownUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL: only what looks like `user:password@` is hidden.
    return url.replace(/\/\/([^/@:\s]*):[^/@\s]*@/, '//$1:***@');
  }
  if (parsed.password !== '') parsed.password = '***';
  // URL keeps `***` as typed; the trailing slash it adds to a bare origin is dropped when the input had none.
  const text = parsed.toString();
  return !url.endsWith('/') && parsed.pathname === '/' && parsed.search === '' && parsed.hash === '' ? text.replace(/\/$/, '') : text;
}

/** `url` without `user:password@`, for fetch (which refuses such a URL) and an Authorization header from them. */
export function splitCredentials(url: string): { url: string; authorization?: string } {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return { url };
  const pair = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString(), authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

/** Whether an answer is a web page rather than an API's JSON or text. */
export function isWebPage(text: string, contentType?: string | null): boolean {
  if (contentType !== undefined && contentType !== null && /\btext\/html\b/i.test(contentType)) return true;
  return /^\s*(<!doctype html|<html|<head|<body|<title)/i.test(text);
}

/** An answer's body in one line: a web page as `an HTML page ("its title")`, other text squeezed and cut. */
export function answerSnippet(text: string, contentType?: string | null): string | undefined {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line === '') return undefined;
  if (isWebPage(line, contentType)) {
    // Its title says what it is; a page without one is named by the start of its visible text.
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(line)?.[1]?.trim();
    const words =
      title !== undefined && title !== ''
        ? title
        : line
            .replace(/<[^>]*>/g, ' ')
            .replace(/\s+/g, ' ')
            .trim();
    return words === '' ? 'an HTML page' : `an HTML page ("${words.length > 80 ? `${words.slice(0, 80)}…` : words}")`;
  }
  return line.length > SNIPPET_LENGTH ? `${line.slice(0, SNIPPET_LENGTH)}…` : line;
}
