/**
 * Every figure a Telegram command prints comes from the one status report (issue 36, item 5:
 * /status said balance 0.00 while /profit said 5,000 idle in the same second). A real daemon
 * against the sandbox, live and dry run, wired from its config with the commands on; at each
 * step of its life (started, polled and offered, balance synced) /status and /profit are asked
 * together, and /profit's idle cash is /status's free cash, the figure `lendbot status --json`
 * reads from the same database. (On the code before the change they agreed too: the figures were
 * already computed alike, by two builds of the report; now there is one builder, so they cannot
 * part. The disagreement the issue saw was not reproduced here.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDaemon } from '../../src/daemon/daemon.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { freePort } from '../../src/daemon/free-port.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { openStore } from '../../src/store/index.js';
import { OFFER_ALL } from '../daemon/daemon-harness.js';
import { runCli } from '../cli/run-cli.js';
import { captureLog } from '../log/log-capture.js';
import { clientFor } from '../sandbox/sandbox-fixture.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { startBotFixture, type BotFixture } from './telegram-bot-fixture.js';
import { COMMANDS_ENV, LENDER } from './telegram-commands-harness.js';

let bot: BotFixture;
beforeEach(async () => {
  bot = await startBotFixture();
});
afterEach(async () => {
  await bot.close();
});

/** Dollars in a line such as "free cash        2470.00 (after ...)" or "Idle cash now: $2,470.00", as cents. */
function cents(text: string, pattern: RegExp): number {
  const match = pattern.exec(text);
  if (match?.[1] === undefined) throw new Error(`no ${String(pattern)} in:\n${text}`);
  return Math.round(Number(match[1].replace(/,/g, '')) * 100);
}

async function ask(): Promise<{ balance: number; free: number; idle: number }> {
  const before = bot.sent.length;
  bot.say(LENDER, '/status');
  bot.say(LENDER, '/profit');
  await bot.waitForSent(before + 2);
  const status = bot.sent[before]?.text ?? '';
  const profit = bot.sent[before + 1]?.text ?? '';
  return {
    balance: cents(status, /^balance +(-?[\d.]+)$/m),
    free: cents(status, /^free cash +(-?[\d.]+)/m),
    idle: cents(profit, /^Idle cash now: -?\$([\d,.]+)$/m),
  };
}

describe('Telegram /status and /profit', () => {
  for (const dryRun of [false, true]) {
    it(`agree at every step of a ${dryRun ? 'dry run' : 'live run'}: idle cash is the free cash of the one status report`, async () => {
      const sandbox = await startSandbox({ manualClock: true, seed: 11, initialBalanceCents: 500_000 });
      const dir = mkdtempSync(join(tmpdir(), 'lendbot-one-source-'));
      const store = openStore(join(dir, 'lendbot.db'));
      const config = daemonConfigSchema.parse({
        db: join(dir, 'lendbot.db'),
        dry_run: dryRun,
        webhook: { host: '127.0.0.1', port: await freePort() },
        ops: { port: 0 },
        poll: { schedule: 'off', at_start: false },
        jobs: { balance_refresh: 'off', reconcile: 'off', fund_accepted: 'off', protections: 'off' },
        risk: { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null, max_offers_per_day: 100 },
        notifications: {
          format: 'telegram',
          telegram_api_url: bot.origin,
          telegram_commands: { enabled: true, poll_timeout_seconds: 1 },
          // Answers in real time: no second's wait between two (the pacing has its own tests, chat-pace.test.ts).
          pace: { min_seconds_between: 0 },
        },
      });
      const daemon = await createDaemon(config, COMMANDS_ENV, {
        client: clientFor(sandbox, { daemonRetries: true }),
        clock: sandbox.clock,
        store,
        log: captureLog().log,
        strategies: [await loadStrategyFile(OFFER_ALL)],
        webhookSecret: sandbox.credentials.webhookSecret,
      });
      try {
        await daemon.start();
        const steps: Array<{ balance: number; free: number; idle: number }> = [await ask()];
        await daemon.runJob('balance');
        steps.push(await ask());
        for (let i = 0; i < 6; i += 1) sandbox.control.createLoanRequest({ svcColor: 1 });
        await daemon.runJob('poll');
        steps.push(await ask());
        await daemon.runJob('balance');
        steps.push(await ask());
        for (const step of steps) expect(step.idle).toBe(Math.max(0, step.free));
        // The CLI reads the same figure from the database, in the same moment.
        const cli = await runCli(['status', '--db', join(dir, 'lendbot.db'), '--json'], {});
        expect((JSON.parse(cli.stdout) as { free_cents: number }).free_cents).toBe(steps.at(-1)?.free);
        // The money was seen: 5,000.00 once the balance is synced, less what the offers reserve.
        expect(steps[1]?.balance).toBe(500_000);
        expect(steps[2]?.free).toBeLessThan(steps[1]?.free ?? 0);
      } finally {
        await daemon.stop();
        await sandbox.close();
        store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);
  }
});
