/**
 * The operator listener against a token thief and a careless client (issue 24, item 8): no token
 * from a query string in the log, MCP sessions capped per token with room kept for the operator,
 * wrong tokens throttled per client and per token (429 with Retry-After, a summary line instead of
 * one a guess) without ever locking out a right token (issue 37, item 5), and weak tokens refused
 * off loopback. Real HTTP, the SDK's client, a manual real clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { AuthThrottle } from '../../src/operator/auth-throttle.js';
import { ConfigurationError } from '../../src/domain/index.js';
import { captureLog } from '../log/log-capture.js';
import { callTool, connectAgent } from './operator-harness.js';
import { CLAUDE, initialize, OPERATOR, ROBOT, startListenerHarness, type ListenerHarness } from './listener-harness.js';

let h: ListenerHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const refusedLines = (logs: ReadonlyArray<Record<string, unknown>>) =>
  logs.filter((line) => String(line.msg).startsWith('operator request refused'));

describe('a token in the query string', () => {
  it('never reaches the log, on /mcp, /api and /reports', async () => {
    h = await startListenerHarness();
    const secret = 'query-token-9f1e27c3b8a4d650';
    const paths = [
      `/mcp?token=${secret}`,
      `/mcp?access_token=${secret}&x=1`,
      `/api/overview?token=${secret}`,
      `/reports/x.html?token=${secret}`,
    ];
    for (const path of paths) {
      // A wrong bearer token too, so that every route refuses and logs the request.
      const response = await fetch(new URL(path, h.base), {
        method: path.startsWith('/mcp') ? 'POST' : 'GET',
        headers: { authorization: 'Bearer wrong-token-for-the-log-test', 'content-type': 'application/json' },
        body: path.startsWith('/mcp') ? '{}' : null,
      });
      expect(response.status, path).toBe(401);
    }
    const unauthenticated = await fetch(new URL(`/mcp?token=${secret}`, h.base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unauthenticated.status).toBe(401);
    const lines = refusedLines(h.logs);
    expect(lines.map((line) => line.path)).toEqual(['/mcp', '/mcp', '/api/overview', '/reports/x.html', '/mcp']);
    expect(JSON.stringify(h.logs)).not.toContain(secret);
  });
});

describe('MCP sessions per token', () => {
  it('caps a token at ops.mcp_sessions_per_token with a clear error, makes room from its idlest session after 5 minutes, and lets the operator in', async () => {
    expect(daemonConfigSchema.parse({}).ops.mcp_sessions_per_token).toBe(8);
    h = await startListenerHarness({ ops: { mcp_sessions_per_token: 3 } });
    const agents = [];
    for (let i = 0; i < 3; i++) agents.push(await connectAgent(h.mcpUrl, CLAUDE));
    const over = await initialize(h.mcpUrl, CLAUDE);
    expect(over.status).toBe(429);
    expect(over.sessionId).toBeNull();
    expect(JSON.parse(over.body).error.message).toContain(
      'Too many MCP sessions for token "claude": 3 open, the most one token may hold (ops.mcp_sessions_per_token)',
    );
    expect(Number(over.retryAfter)).toBeGreaterThan(0);
    await expect(connectAgent(h.mcpUrl, CLAUDE)).rejects.toThrow(/Too many MCP sessions for token/);

    // Another token, and the operator, are not affected.
    const operator = await connectAgent(h.mcpUrl, OPERATOR);
    expect((await callTool(operator, 'get_status')).isError).toBe(false);
    const robot = await connectAgent(h.mcpUrl, ROBOT);

    // Two of claude's sessions are used; the first stays idle. Five minutes on, a new session ends it.
    h.clock.advance(4 * 60_000);
    await callTool(agents[1]!, 'get_status');
    await callTool(agents[2]!, 'get_status');
    h.clock.advance(60_000);
    const fourth = await connectAgent(h.mcpUrl, CLAUDE);
    expect((await callTool(fourth, 'get_status')).isError).toBe(false);
    await expect(callTool(agents[0]!, 'get_status')).rejects.toThrow();
    expect((await callTool(agents[1]!, 'get_status')).isError).toBe(false);
    for (const client of [...agents, fourth, operator, robot]) await client.close().catch(() => undefined);
  });

  it("keeps the operator token's share when other tokens fill the rest", async () => {
    h = await startListenerHarness({ ops: { mcp_sessions_per_token: 32 } });
    for (let i = 0; i < 32; i++) expect((await initialize(h.mcpUrl, CLAUDE)).status).toBe(200);
    // 64 in all, 32 kept for the operator: robot finds no room, the operator does.
    const robot = await initialize(h.mcpUrl, ROBOT);
    expect(robot.status).toBe(503);
    expect(JSON.parse(robot.body).error.message).toBe(
      'Too many MCP sessions (32 open; 32 of 64 are kept for the operator token); close one or retry later',
    );
    for (let i = 0; i < 32; i++) expect((await initialize(h.mcpUrl, OPERATOR)).status, `operator session ${i + 1}`).toBe(200);
  });
});

describe('wrong tokens', () => {
  const signIn = (base: string, token: string, headers: Record<string, string> = {}) =>
    fetch(new URL('/api/session', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ token }),
    });

  it('are throttled per client (429 with Retry-After after 10 in a minute) while the right tokens get in at once, and are summarised in the log', async () => {
    h = await startListenerHarness();
    const attempts: number[] = [];
    for (let i = 0; i < 50; i++) attempts.push((await initialize(h.mcpUrl, `wrong-guess-${i}-aaaaaaaaaaaaaaaa`)).status);
    expect(attempts.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(attempts.slice(10)).toEqual(Array(40).fill(429));
    // From the very same address the right tokens are never throttled: bearer, session, an agent's /mcp.
    const operator = await initialize(h.mcpUrl, OPERATOR);
    expect(operator.status).toBe(200);
    expect((await fetch(new URL('/api/overview', h.base), { headers: { authorization: `Bearer ${OPERATOR}` } })).status).toBe(200);
    expect((await signIn(h.base, OPERATOR)).status).toBe(204);
    const agent = await connectAgent(h.mcpUrl, CLAUDE);
    try {
      expect((await callTool(agent, 'get_status', {})).isError).not.toBe(true);
    } finally {
      await agent.close();
    }
    // The guesser stays throttled, at sign-in as on every route.
    const guess = await initialize(h.mcpUrl, 'wrong-guess-after-aaaaaaaaaaaaaaaa');
    expect(guess.status).toBe(429);
    expect(guess.retryAfter).toBe('60');
    expect(JSON.parse(guess.body)).toEqual({ error: 'too many wrong tokens: retry in 60 s' });
    expect((await signIn(h.base, 'another-guess-bbbbbbbbbbbbbbbbbb')).status).toBe(429);
    expect(
      (await fetch(new URL('/api/overview', h.base), { headers: { authorization: 'Bearer guess-cccccccccccccccccccccc' } })).status,
    ).toBe(429);
    // Without a token nothing is throttled (the dashboard asks who it is before signing in).
    expect((await fetch(new URL('/api/me', h.base))).status).toBe(200);

    h.clock.advance(45_000);
    expect((await initialize(h.mcpUrl, 'wrong-guess-later-aaaaaaaaaaaaaaaa')).retryAfter).toBe('15');
    // Ten refusals logged one by one, one line saying the address is throttled; the rest counted.
    expect(refusedLines(h.logs)).toHaveLength(9);
    expect(h.logs.filter((line) => String(line.msg).includes('wrong tokens from 127.0.0.1 in 60 s'))).toHaveLength(1);

    h.clock.advance(15_000);
    expect((await initialize(h.mcpUrl, 'wrong-guess-next-aaaaaaaaaaaaaaaa')).status).toBe(401);
    const summary = h.logs.find((line) => String(line.msg).startsWith('operator requests refused:'));
    // The tenth refusal, past the lines of the window, and the 44 answers 429.
    expect(summary).toMatchObject({ refused: 1, addresses: 1, throttled: 44 });
    expect(summary?.msg).toContain('44 answered 429 (too many wrong tokens)');
  });

  it('behind a trusted proxy count the forwarded client: a guesser behind it does not throttle the others', async () => {
    h = await startListenerHarness({ ops: { trusted_proxies: ['127.0.0.1', '::1'] } });
    const attacker = { 'x-forwarded-for': '203.0.113.9' };
    const attempts: number[] = [];
    for (let i = 0; i < 50; i++) attempts.push((await initialize(h.mcpUrl, `proxied-guess-${i}-aaaaaaaaaaaaaaaa`, attacker)).status);
    expect(attempts.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(attempts.slice(10)).toEqual(Array(40).fill(429));
    // Another client through the same proxy: a mistyped token is refused (401), not throttled.
    expect((await initialize(h.mcpUrl, 'a-typo-in-the-token-aaaaaaaaaaaaaa', { 'x-forwarded-for': '198.51.100.7' })).status).toBe(401);
    expect((await initialize(h.mcpUrl, OPERATOR, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(200);
    expect((await initialize(h.mcpUrl, OPERATOR, attacker)).status).toBe(200);
    expect(h.logs.filter((line) => String(line.msg).includes('wrong tokens from 203.0.113.9 in 60 s'))).toHaveLength(1);
  });

  it('without a trusted proxy believe no forwarding header, and count one token presented from many clients', async () => {
    h = await startListenerHarness();
    const attempts: number[] = [];
    for (let i = 0; i < 12; i++)
      attempts.push((await initialize(h.mcpUrl, `spoofed-${i}-aaaaaaaaaaaaaaaa`, { 'x-forwarded-for': `203.0.113.${i}` })).status);
    expect(attempts).toEqual([...Array(10).fill(401), 429, 429]);
    await h.close();

    h = await startListenerHarness({ ops: { trusted_proxies: ['127.0.0.0/8'] } });
    const replayed: number[] = [];
    for (let i = 0; i < 12; i++)
      replayed.push((await initialize(h.mcpUrl, 'one-leaked-old-token-aaaaaaaaaaaa', { 'x-forwarded-for': `203.0.113.${i}` })).status);
    expect(replayed).toEqual([...Array(10).fill(401), 429, 429]);
    expect(h.logs.filter((line) => String(line.msg).includes('one wrong token presented 10 times in 60 s'))).toHaveLength(1);
  });

  it('refuses a trusted proxy that is not an address or a range', () => {
    expect(() => daemonConfigSchema.parse({ ops: { trusted_proxies: ['proxy.example'] } })).toThrow(
      'an IP address or a CIDR range, e.g. 127.0.0.1 or 10.0.0.0/8',
    );
  });

  it('from many addresses together lock out every wrong token but loopback, and the summary names the busiest', () => {
    const { log, lines } = captureLog();
    const clock = new ManualClock('2026-03-10T12:00:00Z');
    const throttle = new AuthThrottle(clock, log);
    const wrong = (address: string, i = 0) => ({ client: address, peer: address, token: `guess-${address}-${i}` });
    for (let i = 0; i < 100; i++) {
      const address = `203.0.113.${i % 50}`;
      expect(throttle.retryAfterSeconds(wrong(address, i))).toBeUndefined();
      throttle.failed(wrong(address, i));
      throttle.refused({ address, method: 'POST', path: '/mcp', why: 'wrong bearer token' });
    }
    // Two guesses each: no address reached its own 10, but 100 together did.
    expect(throttle.retryAfterSeconds(wrong('198.51.100.7'))).toBe(60);
    expect(throttle.retryAfterSeconds(wrong('::1'))).toBeUndefined();
    expect(throttle.retryAfterSeconds(wrong('127.0.0.1'))).toBeUndefined();
    expect(lines.filter((line) => String(line.msg).startsWith('operator request refused'))).toHaveLength(10);
    clock.advance(60_000);
    expect(throttle.retryAfterSeconds(wrong('198.51.100.7'))).toBeUndefined();
    const summary = lines.find((line) => String(line.msg).startsWith('operator requests refused:'));
    expect(summary).toMatchObject({
      refused: 90,
      addresses: 50,
      throttled: 1,
      top: expect.arrayContaining([{ address: '203.0.113.10', refused: 2 }]),
    });
    expect(lines.filter((line) => String(line.msg).includes('from all addresses together'))).toHaveLength(1);
  });
});

describe('weak tokens', () => {
  it('are refused at start when the listener binds beyond loopback, naming the variable, never the value', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ LENDBOT_OPERATOR_TOKEN: 'Qz7#k' }, 'LENDBOT_OPERATOR_TOKEN is shorter than 24 characters'],
      [
        { LENDBOT_OPERATOR_TOKEN: OPERATOR, LENDBOT_TOKEN_CLAUDE: 'abababababababababababababababab' },
        'LENDBOT_TOKEN_CLAUDE has fewer than 8 different characters',
      ],
    ];
    for (const [tokens, problem] of cases) {
      const started = startListenerHarness({ ops: { host: '0.0.0.0' }, tokens });
      await expect(started).rejects.toThrow(ConfigurationError);
      const error = (await started.catch((caught: unknown) => caught)) as Error;
      expect(error.message).toContain(problem);
      expect(error.message).toContain('ops.host 0.0.0.0, which is not loopback');
      for (const value of Object.values(tokens)) expect(error.message).not.toContain(value);
    }
    // Strong tokens start there.
    h = await startListenerHarness({ ops: { host: '0.0.0.0' } });
    expect((await initialize(new URL('/mcp', h.base), OPERATOR)).status).toBe(200);
  });

  it('are a warning on loopback', async () => {
    h = await startListenerHarness({ tokens: { LENDBOT_OPERATOR_TOKEN: 'short1', LENDBOT_TOKEN_CLAUDE: CLAUDE } });
    const warnings = h.logs.filter((line) => line.variable === 'LENDBOT_OPERATOR_TOKEN');
    expect(warnings.map((line) => line.msg)).toEqual([
      'operator token LENDBOT_OPERATOR_TOKEN is shorter than 24 characters: weak, accepted only because ops.host is loopback; use at least 24 random characters, e.g. openssl rand -hex 32',
    ]);
    expect(JSON.stringify(h.logs)).not.toContain('short1');
    expect((await initialize(h.mcpUrl, 'short1')).status).toBe(200);
  });
});
