/**
 * Keeping secrets out of error text. A notification URL holds a secret (a Slack or Discord
 * webhook's token, Telegram's bot token), and a service's error answer, or a got error's
 * message, may quote it: whole, as a path (`Not Found: /bot123:AA.../getUpdates`), or as the
 * token alone. Issue 37, item 4: the bot token was once logged that way. Every error text these
 * senders log goes through `redactSecrets` first.
 */

const CENSOR = '[redacted]';
/** A path segment or query value at least this long is treated as a secret (tokens are; words are not). */
const SECRET_PART_MIN = 16;

/** What of a URL is secret: the URL, its path and query, and every long path segment or query value. */
export function urlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const parts = [...parsed.pathname.split('/'), ...[...parsed.searchParams.values()]].filter((part) => part.length >= SECRET_PART_MIN);
  const decoded = parts.map((part) => safeDecode(part));
  return [url, `${parsed.pathname}${parsed.search}`, ...parts, ...decoded].filter((secret) => secret.length >= SECRET_PART_MIN);
}

/** A Telegram bot token's secrets: the token, and its part after the colon (the bot's id before it is public). */
export function botTokenSecrets(token: string): string[] {
  const colon = token.indexOf(':');
  return colon < 0 ? [token] : [token, encodeURIComponent(token), token.slice(colon + 1)];
}

/** `text` with every secret replaced, the longest first (so a URL goes whole, not piece by piece). */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...new Set(secrets)].sort((a, b) => b.length - a.length)) {
    if (secret !== '') out = out.split(secret).join(CENSOR);
  }
  return out;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
