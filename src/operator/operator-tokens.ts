/**
 * Who may use the operator listener: bearer tokens read from the environment at start. A token
 * is compared with every known token in constant time (sha-256 digests of equal length, so the
 * comparison time says nothing about the token or its length). Token values are never logged and
 * never leave this module; callers only ever see a token's name.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { OperatorConfig } from './operator-config.js';

/** The name LENDBOT_OPERATOR_TOKEN's holder is known by (in decisions: "agent:operator"). */
export const OPERATOR_TOKEN_NAME = 'operator';

/**
 * A token shorter than this, or with fewer different characters, is weak: it could be guessed, or
 * was typed by hand. `openssl rand -hex 32` gives 64 characters of 16 kinds.
 */
const MIN_TOKEN_LENGTH = 24;
const MIN_TOKEN_KINDS = 8;

/** Why a token's value is weak (never quoting it), or undefined when it is strong enough. */
function tokenWeakness(value: string): string | undefined {
  if (value.length < MIN_TOKEN_LENGTH) return `is shorter than ${MIN_TOKEN_LENGTH} characters`;
  if (new Set(value).size < MIN_TOKEN_KINDS) return `has fewer than ${MIN_TOKEN_KINDS} different characters`;
  return undefined;
}

/** A weak token: the variable holding it and what is wrong with it (never the value). */
export interface WeakToken {
  variable: string;
  problem: string;
}

interface KnownToken {
  name: string;
  digest: Buffer;
}

export interface TokenSet {
  /** How many tokens are active (0: nobody can authenticate). */
  readonly size: number;
  /** Names of the active tokens (for the start-up log line). */
  readonly names: readonly string[];
  /** Named tokens whose variable is unset or empty: declared but inactive. */
  readonly inactive: readonly string[];
  /** Active tokens whose value is weak (tokenWeakness), by variable. */
  readonly weak: readonly WeakToken[];
  /** The name of the token an `Authorization` header carries, or undefined when it is missing or wrong. */
  authenticate(authorization: string | undefined): string | undefined;
  /** The name of a bare token (the dashboard's sign-in form), or undefined when it is not one of them. */
  identify(token: string): string | undefined;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The tokens of LENDBOT_OPERATOR_TOKEN and of the config's named tokens. */
export function tokensFromEnv(config: Pick<OperatorConfig, 'tokens'>, env: Record<string, string | undefined>): TokenSet {
  const known: KnownToken[] = [];
  const inactive: string[] = [];
  const weak: WeakToken[] = [];
  const add = (name: string, variable: string, value: string) => {
    known.push({ name, digest: digest(value) });
    const problem = tokenWeakness(value);
    if (problem !== undefined) weak.push({ variable, problem });
  };
  const operator = env.LENDBOT_OPERATOR_TOKEN?.trim();
  if (operator) add(OPERATOR_TOKEN_NAME, 'LENDBOT_OPERATOR_TOKEN', operator);
  for (const entry of config.tokens) {
    const value = env[entry.env]?.trim();
    if (value) add(entry.name, entry.env, value);
    else inactive.push(entry.name);
  }
  const identify = (value: string): string | undefined => {
    if (value.length === 0) return undefined;
    const offered = digest(value);
    let found: string | undefined;
    // Every token is compared, whichever matches, so the time taken does not say which one did.
    for (const token of known) {
      if (timingSafeEqual(offered, token.digest) && found === undefined) found = token.name;
    }
    return found;
  };
  return {
    size: known.length,
    names: known.map((token) => token.name),
    inactive,
    weak,
    authenticate(authorization) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      return match?.[1] ? identify(match[1]) : undefined;
    },
    identify,
  };
}
