/**
 * The operator listener alone, on a free port, with the parts `lendbot mcp` builds (the real
 * client, store, offer placer, balance tracker and protections: buildStdioContext) against the
 * client tests' fixture marketplace (test/service/fixture-server.ts), and a manual real clock:
 * sessions' idleness and the throttle's windows move only when a test advances it. Nothing
 * decides requests here: the agents and the test are the only callers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManualClock } from '../../src/clock/clock.js';
import { buildStdioContext, type StdioParts } from '../../src/cli/commands/mcp/stdio-context.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { operatorSurface, type OperatorSurface } from '../../src/operator/operator-surface.js';
import { captureLog } from '../log/log-capture.js';
import { startFixtureServer, type FixtureServer } from '../service/fixture-server.js';

export const B_BUYER = fileURLToPath(new URL('../daemon/fixtures/b-buyer.yaml', import.meta.url));
/** Strong tokens (24 characters or more, of many kinds). */
export const OPERATOR = 'listener-operator-4c81f0a2d95e';
export const CLAUDE = 'listener-claude-77b2e9c04f1a';
export const ROBOT = 'listener-robot-0d3a6e19b7c4';
const API_KEY = 'listener-key';
const SECRET_KEY = 'listener-secret';

export interface ListenerHarness {
  /** The fixture marketplace: a test routes what it answers. */
  market: FixtureServer;
  clock: ManualClock;
  logs: Array<Record<string, unknown>>;
  base: string;
  mcpUrl: URL;
  parts: StdioParts;
  close(): Promise<void>;
}

export interface ListenerOptions {
  /** The ops: section besides host, port and the named tokens claude and robot. */
  ops?: Record<string, unknown>;
  /** Token variables (default: the operator's, claude's and robot's, all strong). */
  tokens?: Record<string, string>;
}

export async function startListenerHarness(options: ListenerOptions = {}): Promise<ListenerHarness> {
  const market = await startFixtureServer({ apiKey: API_KEY, secretKey: SECRET_KEY });
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-listener-'));
  const config = daemonConfigSchema.parse({
    db: join(dir, 'lendbot.db'),
    strategies: [B_BUYER],
    ops: {
      host: '127.0.0.1',
      port: 0,
      tokens: [
        { name: 'claude', env: 'LENDBOT_TOKEN_CLAUDE' },
        { name: 'robot', env: 'LENDBOT_TOKEN_ROBOT' },
      ],
      ...options.ops,
    },
  });
  const tokens = options.tokens ?? { LENDBOT_OPERATOR_TOKEN: OPERATOR, LENDBOT_TOKEN_CLAUDE: CLAUDE, LENDBOT_TOKEN_ROBOT: ROBOT };
  const env = {
    LENDBOT_BASE_URL: market.url,
    LENDBOT_API_KEY: API_KEY,
    LENDBOT_SECRET_KEY: SECRET_KEY,
    LENDBOT_READ_RETRIES: '0',
    ...tokens,
  };
  const { log, lines } = captureLog();
  const clock = new ManualClock(Date.now());
  const parts = await buildStdioContext(config, env, log);
  let surface: OperatorSurface | undefined;
  try {
    surface = operatorSurface({ config: config.ops, env, context: { ...parts.context, realClock: clock }, log });
    await surface.start();
  } catch (error) {
    await parts.close();
    await market.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const base = surface.url();
  if (base === undefined) throw new Error('the operator listener did not start');
  const started = surface;
  return {
    market,
    clock,
    logs: lines,
    base,
    mcpUrl: new URL('/mcp', base),
    parts,
    async close() {
      await started.stop();
      await parts.close();
      await market.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An MCP initialize request's body. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-test', version: '1' } },
});

/** POSTs an initialize to /mcp with this token (or none); the session id when one was opened. */
export async function initialize(
  url: URL,
  token: string | undefined,
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; sessionId: string | null; body: string; retryAfter: string | null }> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...extraHeaders,
  };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await fetch(url, { method: 'POST', headers, body: INITIALIZE });
  return {
    status: response.status,
    sessionId: response.headers.get('mcp-session-id'),
    body: await response.text(),
    retryAfter: response.headers.get('retry-after'),
  };
}
