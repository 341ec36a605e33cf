/**
 * The notifier against a hostile or broken receiver (issue 37, item 4), over real HTTP: the
 * secret in its URL (Telegram's bot token, a Slack webhook's path) never reaches the log, even
 * when the service's error text quotes the request's path or the token, with a 2xx or an error
 * status; an answer of 40 MB, or a small one that inflates to 40 MB, is not read whole.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { NOTIFY_ANSWER_LIMIT, notifierFromConfig } from '../../src/messaging/notifier.js';
import { notificationsSchema } from '../../src/messaging/notifications-config.js';
import { captureLog } from '../log/log-capture.js';
import { TELEGRAM_CHAT_ID, TELEGRAM_TOKEN } from './notification-formats-services.js';
import { drainedOrClosed } from './telegram-bot-fixture.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => unknown;

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(handler: Handler): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => void handler(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const clock = new ManualClock('2026-03-10T12:00:00Z');
const telegramEnv = { LENDBOT_TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN, LENDBOT_TELEGRAM_CHAT_ID: TELEGRAM_CHAT_ID };
const SECRET = TELEGRAM_TOKEN.split(':')[1] ?? '';

function telegramNotifier(origin: string) {
  const captured = captureLog('debug');
  const notifier = notifierFromConfig(
    notificationsSchema.parse({ retries: 0, format: 'telegram', telegram_api_url: origin }),
    telegramEnv,
    {
      clock,
      log: captured.log,
    },
  );
  if (notifier === undefined) throw new Error('expected a notifier');
  return { notifier, captured };
}

const json = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('the notifier never logs its secret', () => {
  it("when Telegram's error text quotes the request path or the token, on an error status and on a 200", async () => {
    const answers: Array<(request: IncomingMessage, response: ServerResponse) => void> = [
      (request, response) => json(response, 404, { ok: false, error_code: 404, description: `Not Found: ${request.url ?? ''}` }),
      (_request, response) => json(response, 200, { ok: false, description: `token ${TELEGRAM_TOKEN} is revoked (secret ${SECRET})` }),
      (request, response) => response.writeHead(400, { 'content-type': 'text/plain' }).end(`bad request to http://x${request.url ?? ''}`),
    ];
    const origin = await serve((request, response) => answers.shift()?.(request, response));
    const { notifier, captured } = telegramNotifier(origin);
    for (let i = 0; i < 3; i++) expect(await notifier.notify('daemon_error', { message: 'boom' })).toBe('failed');
    expect(captured.lines.map((line) => line.detail)).toEqual([
      'Not Found: [redacted]',
      'token [redacted] is revoked (secret [redacted])',
      'bad request to http://x[redacted]',
    ]);
    expect(JSON.stringify(captured.lines)).not.toContain(SECRET);
  });

  it("when a Slack webhook's refusal quotes its path", async () => {
    const path = '/services/T0FIXTURE/B0FIXTURE/abcdefghijklmnopqrstuvwx';
    const origin = await serve((request, response) => response.writeHead(404).end(`no_team: ${request.url ?? ''}`));
    const captured = captureLog('debug');
    const notifier = notifierFromConfig(
      notificationsSchema.parse({ retries: 0, format: 'slack' }),
      { LENDBOT_NOTIFY_URL: `${origin}${path}` },
      {
        clock,
        log: captured.log,
      },
    );
    expect(await notifier?.notify('daemon_error', { message: 'boom' })).toBe('failed');
    expect(captured.lines.at(-1)?.detail).toBe('no_team: [redacted]');
    expect(JSON.stringify(captured.lines)).not.toContain('abcdefghijklmnopqrstuvwx');
  });
});

describe("the notifier's answers", () => {
  it('are read up to their limit: 40 MB streamed, or 40 MB inflated from a small gzip, is not read whole', async () => {
    let written = 0;
    const bomb = gzipSync(Buffer.alloc(40 * 1024 * 1024, ' '));
    const answers: Handler[] = [
      async (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, ' ');
        let closed = false;
        response.on('close', () => (closed = true));
        while (!closed && written < 40 * 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) await drainedOrClosed(response);
        }
        if (!closed) response.end();
      },
      (_request, response) => response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(bomb),
    ];
    const origin = await serve((request, response) => answers.shift()?.(request, response));
    const { notifier, captured } = telegramNotifier(origin);
    expect(await notifier.notify('daemon_error', { message: 'boom' })).toBe('failed');
    expect(written).toBeLessThan(NOTIFY_ANSWER_LIMIT + 8 * 1024 * 1024);
    expect(await notifier.notify('daemon_error', { message: 'boom' })).toBe('failed');
    expect(captured.lines.map((line) => line.detail)).toEqual([
      `the answer is larger than ${NOTIFY_ANSWER_LIMIT} bytes; not read`,
      `the answer inflates beyond ${NOTIFY_ANSWER_LIMIT} bytes; not read`,
    ]);
  });
});
