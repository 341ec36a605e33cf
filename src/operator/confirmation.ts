/**
 * Confirming an action that spends money or resumes trading (get_provider_score, resume_offers,
 * and place_offer within its token's allowance: beyond it an offer waits for a person,
 * proposals/). Two ways:
 *
 * - MCP elicitation, when the client declared it: the person sees what would happen and accepts
 *   or declines in the client, during the same tool call.
 * - Two steps otherwise: the first call only answers what would happen and a code; a second call
 *   with the same arguments and that code acts. A code is valid for two minutes of real time,
 *   once, for the exact arguments and the token that asked for it, so an agent cannot reuse a
 *   code for another request, rate or caller.
 *
 * Neither proves that a person agreed (the code goes back to the agent; a client may accept its
 * own prompt): they keep an agent from acting by accident. Only an allowance the operator set on
 * purpose, or a person's approval of a proposal, lets an agent's offer out.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../clock/clock.js';

export const CONFIRMATION_TTL_MS = 2 * 60_000;
/** Codes kept at most (oldest dropped first): an agent asking in a loop cannot fill the memory. */
const MAX_PENDING = 1000;

interface Pending {
  /** Hash of (tool, arguments, token name). */
  binding: string;
  expiresAtMs: number;
}

/** A canonical text of the arguments: keys sorted, the code itself left out, undefined dropped. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([key, item]) => key !== 'confirmation_code' && item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function bindingOf(tool: string, args: unknown, tokenName: string): string {
  return createHash('sha256')
    .update(`${tool}\n${tokenName}\n${canonical(args)}`)
    .digest('hex');
}

export type CodeCheck = 'ok' | 'unknown' | 'expired' | 'mismatch';

/** The two-step codes of one process (the HTTP sessions of a daemon share it). */
export class ConfirmationCodes {
  private readonly pending = new Map<string, Pending>();

  /** `realClock`: a person's two minutes, even when the market's clock runs a day a second. */
  constructor(private readonly realClock: Clock) {}

  /** A fresh code for this call; it confirms exactly this tool, these arguments and this token. */
  issue(tool: string, args: unknown, tokenName: string): { code: string; expiresAtMs: number } {
    this.sweep();
    while (this.pending.size >= MAX_PENDING) {
      const oldest = this.pending.keys().next().value;
      if (oldest === undefined) break;
      this.pending.delete(oldest);
    }
    // 40 random bits in 8 base32 letters: easy to read aloud, and unguessable within two minutes.
    const code = base32(randomBytes(5));
    const expiresAtMs = this.realClock.now() + CONFIRMATION_TTL_MS;
    this.pending.set(code, { binding: bindingOf(tool, args, tokenName), expiresAtMs });
    return { code, expiresAtMs };
  }

  /** Uses a code up (whatever the outcome, so a wrong guess burns it); 'ok' when it confirms this call. */
  redeem(code: string, tool: string, args: unknown, tokenName: string): CodeCheck {
    const key = code.trim().toUpperCase();
    const pending = this.pending.get(key);
    if (pending === undefined) return 'unknown';
    this.pending.delete(key);
    if (this.realClock.now() >= pending.expiresAtMs) return 'expired';
    return pending.binding === bindingOf(tool, args, tokenName) ? 'ok' : 'mismatch';
  }

  private sweep(): void {
    const now = this.realClock.now();
    for (const [code, pending] of this.pending) if (now >= pending.expiresAtMs) this.pending.delete(code);
  }
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/** Why a code did not confirm, in words for the agent. */
export function codeProblem(check: Exclude<CodeCheck, 'ok'>): string {
  switch (check) {
    case 'unknown':
      return 'the confirmation code is unknown or was already used; call again without a code for a new one';
    case 'expired':
      return 'the confirmation code expired (codes are valid for two minutes); call again without a code for a new one';
    case 'mismatch':
      return 'the confirmation code was issued for other arguments or another token; it is now used up; call again without a code for a new one';
  }
}
