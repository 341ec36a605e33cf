/**
 * A daemon on an in-process sandbox with its operator listener on a free port and two tokens
 * (LENDBOT_OPERATOR_TOKEN and a named one, `claude`, whose allowance places any offer without a
 * person; the operator token has none: its offers become proposals), and MCP clients of the SDK
 * to talk to it. The daemon hears no webhook and never polls: the agent is the only one acting,
 * so every offer at the sandbox is the agent's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { UNTRUSTED_FIELD } from '../../src/operator/untrusted-data.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import type { MarketplaceClient } from '../../src/service/index.js';
import { clientFor } from '../sandbox/sandbox-fixture.js';
import { openStore, type Store } from '../../src/store/index.js';
import { captureLog } from '../log/log-capture.js';
import { OFFER_ALL } from '../daemon/daemon-harness.js';

export const CASHFLOW = fileURLToPath(new URL('../../strategies/cashflow.yaml', import.meta.url));
export const OPERATOR_TOKEN = 'operator-token-5b1f0c9e7d';
export const CLAUDE_TOKEN = 'claude-token-a83e11f42c';

export interface OperatorHarness {
  sandbox: SandboxHandle;
  daemon: Daemon;
  store: Store;
  /** A client of the sandbox on the daemon's credentials, to check the tools' answers against. */
  service: MarketplaceClient;
  logs: Array<Record<string, unknown>>;
  mcpUrl: URL;
  close(): Promise<void>;
}

export interface OperatorHarnessOptions {
  /** The daemon's strategy files (default offer-all and cashflow). */
  strategyFiles?: string[];
}

export async function startOperatorHarness(options: OperatorHarnessOptions = {}): Promise<OperatorHarness> {
  // No arrivals of its own: the tests' requests are the whole market, and a month passes at once.
  const sandbox = await startSandbox({ manualClock: true, seed: 11, arrivalsPerHour: 0 });
  sandbox.control.setBalance(1_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-operator-'));
  const store = openStore(join(dir, 'lendbot.db'));
  const config = daemonConfigSchema.parse({
    db: join(dir, 'lendbot.db'),
    strategies: options.strategyFiles ?? [OFFER_ALL, CASHFLOW],
    webhook: { host: '127.0.0.1', port: 0 },
    poll: { schedule: 'off', at_start: false },
    jobs: { balance_refresh: 'off', reconcile: 'off', fund_accepted: 'off', protections: 'off' },
    risk: { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null },
    // claude's allowance covers every offer of these tests: they are about the tools; what waits
    // for a person beyond an allowance is test/operator/proposals.test.ts's.
    ops: {
      host: '127.0.0.1',
      port: 0,
      tokens: [
        {
          name: 'claude',
          env: 'LENDBOT_TOKEN_CLAUDE',
          allowance: { max_per_offer: 1_000_000, max_per_day: 10_000_000, risk_levels: [0, 1, 2, 3, 4] },
        },
      ],
    },
  });
  const { log, lines: logs } = captureLog();
  const service = clientFor(sandbox, { daemonRetries: true });
  const env = { LENDBOT_OPERATOR_TOKEN: OPERATOR_TOKEN, LENDBOT_TOKEN_CLAUDE: CLAUDE_TOKEN };
  const daemon = await createDaemon(config, env, {
    client: service,
    clock: sandbox.clock,
    store,
    log,
    webhookSecret: sandbox.credentials.webhookSecret,
  });
  await daemon.start();
  const base = daemon.operatorUrl();
  if (base === undefined) throw new Error('the operator listener did not start');
  return {
    sandbox,
    daemon,
    store,
    service,
    logs,
    mcpUrl: new URL('/mcp', base),
    async close() {
      await daemon.stop();
      await sandbox.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An SDK client over streamable HTTP with this bearer token; `elicit` answers confirmation prompts. */
export async function connectAgent(url: URL, token: string, elicit?: (message: string) => ElicitResult): Promise<Client> {
  const client = new Client(
    { name: 'lendbot-test-agent', version: '1.0.0' },
    { capabilities: elicit ? { elicitation: { form: {} } } : {} },
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(request.params.message));
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return client;
}

/** Calls a tool and returns its structured content (and whether it is an error answer). */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ data: Record<string, unknown>; text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  if (result.structuredContent === undefined) throw new Error(`${name} answered without structured content: ${text}`);
  return { data: result.structuredContent, text, isError: result.isError === true };
}

/** What a tool's structured content carries from the marketplace (src/operator/untrusted-data.ts). */
export function market(data: Record<string, unknown>): Record<string, unknown> {
  const carried = data[UNTRUSTED_FIELD];
  if (carried === null || typeof carried !== 'object') throw new Error(`no ${UNTRUSTED_FIELD} in ${JSON.stringify(data).slice(0, 200)}`);
  return carried as Record<string, unknown>;
}
