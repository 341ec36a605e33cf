/**
 * The notification of an agent's proposal (issue 24, item 4): the watcher reads the proposals the
 * daemon stored and tells each waiting one once, with the link that opens it on the dashboard the
 * running daemon serves, in the generic JSON document and in a Slack message that Slack's own
 * rules accept. Opening the link is a GET of the dashboard's page: it approves nothing.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock/clock.js';
import { NotificationWatcher } from '../../src/messaging/notification-watcher.js';
import { notifierFromConfig } from '../../src/messaging/notifier.js';
import { notificationsSchema } from '../../src/messaging/notifications-config.js';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/index.js';
import { captureLog } from '../log/log-capture.js';
import { callTool, connectAgent } from '../operator/operator-harness.js';
import { CLAUDE_TOKEN, OPERATOR_TOKEN, postJson, startProposalHarness, type ProposalHarness } from '../operator/proposal-harness.js';
import { SLACK_PATH, startSlack, type FixtureService } from './notification-formats-services.js';
import { startNotificationReceiver, type NotificationReceiver } from './notification-receiver.js';

let h: ProposalHarness;
let agent: Client;
let receiver: NotificationReceiver;
let slack: FixtureService;

beforeAll(async () => {
  h = await startProposalHarness();
  agent = await connectAgent(h.mcpUrl, CLAUDE_TOKEN);
  receiver = await startNotificationReceiver();
  slack = await startSlack();
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await receiver?.close();
  await slack?.close();
  await h?.close();
});

function watcher(config: Record<string, unknown>, env: Record<string, string>): NotificationWatcher {
  const { log } = captureLog();
  const notifier = notifierFromConfig(notificationsSchema.parse({ retries: 0, ...config }), env, { clock: systemClock, log });
  if (notifier === undefined) throw new Error('no notifier');
  const status = () =>
    buildStatusReport({ store: h.store, nowMs: systemClock.now(), limits: DEFAULT_RISK_LIMITS, budgets: [], dryRun: false });
  return new NotificationWatcher({ store: h.store, clock: systemClock, notifier, status });
}

describe('the notification of a proposal', () => {
  it('carries the link to the proposal on the dashboard, once, and only while it waits', async () => {
    const json = watcher({}, { LENDBOT_NOTIFY_URL: receiver.url });
    await json.check();
    receiver.received.length = 0;

    const request = h.makeRequest();
    const proposed = await callTool(agent, 'place_offer', { loan_request_id: request.id, rate: 0.24, automate_fund: true });
    const id = proposed.data.proposal_id as number;
    // Approved before the check: nobody needs telling.
    const other = h.makeRequest();
    const decided = await callTool(agent, 'place_offer', { loan_request_id: other.id, rate: 0.24 });
    const rejected = await postJson(h, `/api/proposals/${String(decided.data.proposal_id)}/reject`, {
      cookie: await h.signIn(OPERATOR_TOKEN),
    });
    expect(rejected.status).toBe(200);

    await json.check();
    const told = receiver.received.filter((body) => body.event === 'offer_proposed');
    expect(told).toHaveLength(1);
    const link = `${h.base}/#proposal-${id}`;
    expect(told[0]?.data).toEqual({
      agent: 'agent:claude',
      loan_request_id: request.id,
      proposal_id: id,
      rate: 0.24,
      amount_cents: expect.any(Number),
      risk_level: 1,
      automate_fund: true,
      expires_at: proposed.data.expires_at,
      why_approval: 'token "claude" has no allowance, so every offer it asks for waits for a person',
      review_url: link,
      approve_command: `lendbot approve ${id}`,
    });
    await json.check();
    expect(receiver.received.filter((body) => body.event === 'offer_proposed')).toHaveLength(1);

    // The link opens the dashboard's page; the proposal still waits.
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(h.store.proposals.get(id)?.status).toBe('pending');
  });

  it('reads in a Slack message: who asks, what, and the link', async () => {
    const request = h.makeRequest();
    const proposed = await callTool(agent, 'place_offer', { loan_request_id: request.id, rate: 0.26 });
    const id = proposed.data.proposal_id as number;
    const chat = watcher({ format: 'slack' }, { LENDBOT_NOTIFY_URL: `${slack.origin}${SLACK_PATH}` });
    await chat.check();
    expect(slack.refusals).toEqual([]);
    const body = slack.requests
      .map((sent) => sent.body as { text: string; blocks: Array<{ text?: { text: string }; fields?: Array<{ text: string }> }> })
      .find((sent) => sent.text.includes(`loan request ${request.id}`));
    expect(body?.text).toBe(`agent:claude asks to offer on loan request ${request.id}: a person must approve`);
    const fields = body?.blocks.flatMap((block) => block.fields ?? []).map((field) => field.text) ?? [];
    expect(fields).toContain(`*Review and approve*\n${h.base}/#proposal-${id}`);
    expect(fields).toContain('*Rate*\n26 %');
    expect(body?.blocks[0]?.text?.text).toContain(`run lendbot approve ${id} on the daemon's machine`);
  });
});
