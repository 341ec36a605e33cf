/** The session store and the Cookie header, on their own: expiry, sign-out, and cookies as browsers send them. */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { clearedSessionCookie, readCookie, sessionCookie } from '../../src/operator/api/cookies.js';
import { isLoopbackAddress } from '../../src/operator/wrong-token.js';
import { SESSION_TTL_MS, SessionStore } from '../../src/operator/api/sessions.js';

describe('dashboard sessions', () => {
  it('name their token until they expire after 12 hours or are closed', () => {
    const clock = new ManualClock();
    const sessions = new SessionStore(clock);
    const one = sessions.open('operator');
    const two = sessions.open('viewer');
    expect(one.id).not.toBe(two.id);
    expect(one.maxAgeSeconds).toBe(43_200);
    expect(sessions.nameOf(one.id)).toBe('operator');
    expect(sessions.nameOf('made-up')).toBeUndefined();
    sessions.close(two.id);
    expect(sessions.nameOf(two.id)).toBeUndefined();
    clock.advance(SESSION_TTL_MS - 1);
    expect(sessions.nameOf(one.id)).toBe('operator');
    clock.advance(1);
    expect(sessions.nameOf(one.id)).toBeUndefined();
    expect(sessions.size).toBe(0);
  });

  it('read the session cookie among others, and write it HttpOnly and SameSite=Strict', () => {
    expect(readCookie('theme=dark; lendbot_session=abc-_1; x=y', 'lendbot_session')).toBe('abc-_1');
    expect(readCookie('lendbot_session="quoted"', 'lendbot_session')).toBe('quoted');
    expect(readCookie('xlendbot_session=no; lendbot_session_old=no', 'lendbot_session')).toBeUndefined();
    expect(readCookie('lendbot_session=', 'lendbot_session')).toBeUndefined();
    expect(readCookie(undefined, 'lendbot_session')).toBeUndefined();
    expect(sessionCookie('abc', 60)).toBe('lendbot_session=abc; Path=/; HttpOnly; SameSite=Strict; Max-Age=60');
    expect(clearedSessionCookie()).toBe('lendbot_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
  });

  it('take only loopback client addresses for this machine', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ['10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1', 'fe80::1', undefined])
      expect(isLoopbackAddress(address), String(address)).toBe(false);
  });
});
