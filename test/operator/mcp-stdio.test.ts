/**
 * `lendbot mcp`: the real binary spawned by the SDK's stdio client, on the sandbox's credentials
 * and a database of its own. Reads answer as the sandbox does, an offer needs its code, and stdout
 * carries nothing but the protocol (the client would fail on any other line).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { openStore } from '../../src/store/index.js';
import { BIN, cleanEnv } from '../cli/run-cli.js';
import { OFFER_ALL } from '../daemon/daemon-harness.js';
import { callTool, market } from './operator-harness.js';

let sandbox: SandboxHandle;
let dir: string;
let client: Client;
let stderr = '';

beforeAll(async () => {
  sandbox = await startSandbox({ manualClock: true, seed: 5, arrivalsPerHour: 0 });
  sandbox.control.setBalance(500_000);
  dir = mkdtempSync(join(tmpdir(), 'lendbot-mcp-stdio-'));
  // The daemon's config file: its database, strategies and risk section (the shipped caps are for a live account).
  const config = join(dir, 'lendbot.yaml');
  writeFileSync(
    config,
    [
      `db: ${join(dir, 'lendbot.db')}`,
      `strategies: [${OFFER_ALL}]`,
      'risk: { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null }',
      // `--name desk` has the allowance of the token named desk: its offers are placed once confirmed.
      'ops: { tokens: [{ name: desk, env: LENDBOT_TOKEN_DESK, allowance: { max_per_offer: 100000, max_per_day: 1000000, risk_levels: [0, 1, 2] } }] }',
      '',
    ].join('\n'),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--config', config, '--name', 'desk'],
    env: {
      ...cleanEnv(),
      LENDBOT_BASE_URL: sandbox.url,
      LENDBOT_API_KEY: sandbox.credentials.apiKey,
      LENDBOT_SECRET_KEY: sandbox.credentials.secretKey,
      LENDBOT_LOG_LEVEL: 'info',
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
}, 90_000);

afterAll(async () => {
  await client?.close();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('lendbot mcp over stdio', () => {
  it('serves the same tools, answering as the sandbox does', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('place_offer');
    expect(tools).toHaveLength(19);
    const request = sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.4, competitorOffers: 0 });
    const listed = await callTool(client, 'list_loan_requests', {});
    expect((market(listed.data).items as Array<{ id: number }>).map((item) => item.id)).toEqual([request.id]);

    const first = await callTool(client, 'place_offer', { loan_request_id: request.id, rate: 0.22 });
    expect(first.data).toMatchObject({ status: 'confirmation_required' });
    expect(sandbox.control.offers()).toHaveLength(0);
    const placed = await callTool(client, 'place_offer', {
      loan_request_id: request.id,
      rate: 0.22,
      confirmation_code: first.data.confirmation_code,
    });
    expect(placed.data, placed.text).toMatchObject({ status: 'placed' });
    expect(sandbox.control.offers().map((offer) => [offer.loan_request?.id, offer.offered_interest])).toEqual([[request.id, 0.22]]);

    const decisions = await callTool(client, 'list_decisions', {});
    expect(decisions.data.decisions).toEqual([
      expect.objectContaining({ loan_request_id: request.id, source: 'agent:desk', action: 'offer' }),
    ]);
  });

  it('logs to stderr only, and closes its database when the client goes', async () => {
    expect(stderr).toContain('"msg":"MCP agent connector on stdio"');
    await client.close();
    // Closed cleanly: the database opens and holds the agent's decision.
    const deadline = Date.now() + 10_000;
    while (!stderr.includes('MCP agent connector stopped') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stderr).toContain('"msg":"MCP agent connector stopped"');
    const store = openStore(join(dir, 'lendbot.db'));
    try {
      expect(store.decisions.list().map((decision) => decision.source)).toEqual(['agent:desk']);
    } finally {
      store.close();
    }
  });
});
