/**
 * The dashboard's sign-in sessions: a random id (the cookie's value) mapped to the name of the
 * token that signed in, kept in memory only. A restart signs everyone out, which is what a
 * person expects of a daemon restart and means no session id ever reaches the disk.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock/clock.js';

export const SESSION_TTL_MS = 12 * 3_600_000;
/** More sessions than a few people's browsers ever need; the oldest goes first beyond it. */
const MAX_SESSIONS = 256;

interface Session {
  name: string;
  expiresAtMs: number;
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly clock: Clock) {}

  /** Opens a session for a token's name; returns its id (43 url-safe characters, 256 random bits). */
  open(name: string): { id: string; maxAgeSeconds: number } {
    this.sweep();
    while (this.sessions.size >= MAX_SESSIONS) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
    const id = randomBytes(32).toString('base64url');
    this.sessions.set(id, { name, expiresAtMs: this.clock.now() + SESSION_TTL_MS });
    return { id, maxAgeSeconds: Math.floor(SESSION_TTL_MS / 1000) };
  }

  /** The token name of a live session, or undefined (unknown or expired). */
  nameOf(id: string | undefined): string | undefined {
    if (id === undefined) return undefined;
    const session = this.sessions.get(id);
    if (session === undefined) return undefined;
    if (this.clock.now() >= session.expiresAtMs) {
      this.sessions.delete(id);
      return undefined;
    }
    return session.name;
  }

  close(id: string | undefined): void {
    if (id !== undefined) this.sessions.delete(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const [id, session] of this.sessions) if (now >= session.expiresAtMs) this.sessions.delete(id);
  }
}
