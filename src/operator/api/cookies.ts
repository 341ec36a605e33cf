/**
 * The session cookie, read and written by hand (RFC 6265 is small enough not to need a
 * dependency): HttpOnly so page scripts never see it, SameSite=Strict so another site's page
 * never sends it, Path=/ for the whole listener. No Secure flag: the listener speaks plain HTTP
 * on loopback; behind a TLS proxy the proxy can add it.
 */
export const SESSION_COOKIE = 'lendbot_session';

/** The value of one cookie in a Cookie header; the first wins when a name repeats. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    if (part.slice(0, equals).trim() !== name) continue;
    let value = part.slice(equals + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    return value.length > 0 ? value : undefined;
  }
  return undefined;
}

/** The Set-Cookie value that gives the browser a session. */
export function sessionCookie(id: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}`;
}

/** The Set-Cookie value that makes the browser forget it. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
}
