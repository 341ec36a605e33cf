/**
 * `lendbot webhook test --url URL`: the webhook path end to end, as the marketplace will use it.
 * One `new_loan_request_created` event, shaped and signed as the service sends it, is POSTed to the
 * public address (through the proxy and TLS in front of the listener); the HTTP answer is reported
 * and, with --db, what the daemon then did with the event: stored in its inbox, processed, and the
 * decision when the loan request exists. A made-up id (the default) is stored and dropped as not
 * listed: nothing is offered.
 */
import type { Command } from 'commander';
import { realSleep, systemClock } from '../../../clock/clock.js';
import { NEW_LOAN_REQUEST_TOPIC } from '../../../domain/index.js';
import { shownUrl } from '../../../service/index.js';
import { openStoreReadOnly, type Store } from '../../../store/index.js';
import { printJson, type CliIo } from '../../cli-io.js';
import { databaseToRead } from '../../database-to-read.js';
import { examplesHelp } from '../../examples-help.js';
import { UserError } from '../../user-error.js';
import { answerMeaning, deliveryFailureText, httpUrl, sendSignedEvent, testEvent, type DeliveryAnswer } from './signed-event.js';
import { daemonReport, type DaemonReport } from './daemon-report.js';

interface WebhookTestOptions {
  url: string;
  db?: string;
  loanRequestId: number;
  amount: number;
  wait: number;
  json?: boolean;
}

/** An id far above any real one: the daemon finds no such request and drops the event. */
export const MADE_UP_LOAN_REQUEST_ID = 999_999_999;
const DEFAULT_WAIT_SECONDS = 15;
const SEND_TIMEOUT_MS = 30_000;

export function registerWebhookCommand(program: Command, io: CliIo): void {
  const webhook = program
    .command('webhook')
    .description('check the webhook path end to end: send a signed test event, see what the daemon did with it')
    .addHelpText(
      'after',
      examplesHelp(['lendbot webhook test --url https://bot.example.com/webhooks', 'through the proxy, as the marketplace posts']),
    );

  webhook
    .command('test')
    .description(
      'POST one event shaped and signed as the marketplace sends it (LENDBOT_WEBHOOK_SECRET) and report the answer and, with --db, what the daemon did',
    )
    .requiredOption('--url <url>', 'the public webhook address registered with the marketplace', httpUrl('--url'))
    .option('--db <path>', "the daemon's database: wait for the event there and report what became of it")
    .option(
      '--loan-request-id <id>',
      `the event's loan request (default ${MADE_UP_LOAN_REQUEST_ID}, made up: stored, then dropped as not listed)`,
      positive('--loan-request-id'),
      MADE_UP_LOAN_REQUEST_ID,
    )
    .option('--amount <dollars>', "the event's loan_request_amount", positive('--amount'), 1000)
    .option('--wait <seconds>', 'how long to wait for the daemon with --db', positive('--wait'), DEFAULT_WAIT_SECONDS)
    .option('--json', 'one JSON document')
    .addHelpText(
      'after',
      `
Environment:
  LENDBOT_WEBHOOK_SECRET  the secret the marketplace gave with the subscription; the daemon must have the same`,
    )
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot webhook test --url https://bot.example.com/webhooks', 'the answer only'],
        ['lendbot webhook test --url https://bot.example.com/webhooks --db data/lendbot.db', 'and what the daemon did with it'],
        [
          'lendbot webhook test --url http://127.0.0.1:8080/webhooks --loan-request-id 1042 --db data/lendbot.db',
          'a real request: see its decision',
        ],
      ),
    )
    .action(async (options: WebhookTestOptions) => {
      const secret = io.env.LENDBOT_WEBHOOK_SECRET?.trim();
      if (!secret)
        throw new UserError('LENDBOT_WEBHOOK_SECRET is not set: export the secret the marketplace gave with the webhook subscription');
      // Opened before sending: a mistyped --db fails before anything is sent.
      const store = options.db === undefined ? undefined : openStoreReadOnly(databaseToRead(options.db, options.db, io));
      try {
        await runTest(options, secret, store, io);
      } finally {
        store?.close();
      }
    });
}

async function runTest(options: WebhookTestOptions, secret: string, store: Store | undefined, io: CliIo): Promise<void> {
  const event = testEvent(NEW_LOAN_REQUEST_TOPIC, {
    loan_request_id: options.loanRequestId,
    loan_request_amount: options.amount,
    loan_request_type: 'cash',
    has_banking_data: false,
    automated_loan_request: false,
  });
  let answer: DeliveryAnswer;
  try {
    answer = await sendSignedEvent(options.url, secret, event, { nowMs: systemClock.now(), timeoutMs: SEND_TIMEOUT_MS });
  } catch (error) {
    throw new UserError(
      `${deliveryFailureText(options.url, error)} (check the address, the proxy in front of the listener and that lendbot run is up)`,
    );
  }
  const meaning = answerMeaning(answer);
  const daemon =
    meaning.ok && store !== undefined
      ? await daemonReport(store, event.webhookUuid, options.loanRequestId, { waitMs: options.wait * 1000, sleep: realSleep })
      : undefined;
  if (options.json) {
    printJson(io, {
      webhook_uuid: event.webhookUuid,
      loan_request_id: options.loanRequestId,
      status: answer.status,
      answer: answer.text,
      ok: meaning.ok,
      daemon: daemon ?? null,
    });
  } else {
    io.stdout.write(
      `sent ${NEW_LOAN_REQUEST_TOPIC} ${event.webhookUuid} (loan request ${options.loanRequestId}) to ${shownUrl(options.url)}\n`,
    );
    io.stdout.write(`${meaning.text}\n`);
    if (daemon !== undefined) io.stdout.write(daemonText(daemon));
    else if (meaning.ok && store === undefined) io.stdout.write("pass --db with the daemon's database to see what it did with the event\n");
  }
  if (!meaning.ok) throw new UserError(`the listener did not take the event: ${meaning.fix ?? ''}`);
  if (daemon !== undefined && !daemon.stored)
    throw new UserError(
      'the listener answered 200 but the event is not in this database: is --db the database of the daemon behind this URL?',
    );
}

function daemonText(report: DaemonReport): string {
  const lines = report.lines.map((line) => `  ${line}`);
  return `the daemon:\n${lines.join('\n')}\n`;
}

function positive(name: string): (text: string) => number {
  return (text: string) => {
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0) throw new UserError(`${name} must be a positive number (got "${text}")`, 'USAGE');
    return value;
  };
}
