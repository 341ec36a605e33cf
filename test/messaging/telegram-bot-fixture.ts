/**
 * A small server that speaks the Telegram Bot API's long polling for one bot: `getUpdates`
 * answers the queued updates from `offset` on (and forgets the older ones, as Telegram does), or
 * holds the call up to its `timeout` seconds until one is queued; `sendMessage` records the
 * message (HTML parsed as Telegram parses it, refused when it would not parse). It counts calls in flight, can fail the next calls with 502, and refuses any other token.
 * `getMe` names the bot (`lendbot_bot`). Given a clock, it holds each chat to Telegram's limits as the
 * real API does (a message sooner than `minGapMs` after the last, or over `perMinute` in 60 s, is
 * refused 429 "Too Many Requests: retry after N") and stamps each message with the clock's time.
 * For attacks (issue 37, item 4) it can replay an update
 * already answered, answer the next getUpdates with an error quoting the request's path, or
 * stream a huge answer (counting the bytes it managed to write before the client hung up).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TelegramUpdate } from '../../src/messaging/telegram-commands/telegram-bot-api.js';
import { parseTelegramHtml } from './notification-formats-services.js';

export const BOT_TOKEN = '123456789:AAFixtureTokenFixtureTokenFixture_ab';
export const BOT_USERNAME = 'lendbot_bot';

export interface BotFixture {
  origin: string;
  /** Queues a text message from `chatId`, dated `dateMs` (default now). */
  say(chatId: number, text: string, dateMs?: number): void;
  /** What each message showed (HTML parsed), its HTML when it was sent as such, and when (the limits' clock). */
  sent: Array<{ chat_id: string; text: string; html: string | null; atMs?: number }>;
  /** Messages refused 429 for the per-chat limits. */
  tooMany: number;
  /** getUpdates calls so far, and the most ever in flight at once. */
  polls: number;
  maxInFlight: number;
  /** The next `count` getUpdates calls answer 502. */
  failNext(count: number): void;
  /** Queues again an update already delivered (same id, same message): a replay. */
  replay(updateId: number): void;
  /** The next getUpdates call answers `status` with this description (the request's path put for `{path}`). */
  describeNext(status: number, description: string): void;
  /** The next getUpdates call answers 200 with `bytes` of JSON, streamed without a Content-Length. */
  streamNext(bytes: number): void;
  /** Bytes of the streamed answer written before the client hung up (or all of them). */
  streamed: number;
  /** The ids of every update queued so far, in order. */
  updateIds: number[];
  /** Resolves once `count` messages were sent. */
  waitForSent(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/** Telegram's per-chat limits as the fixture enforces them, on a clock the test controls. */
export interface ChatLimits {
  clock: { now(): number };
  minGapMs: number;
  perMinute: number;
}

export async function startBotFixture(options: { limits?: ChatLimits } = {}): Promise<BotFixture> {
  /** Per chat, the times of the messages accepted in the last minute (limits' clock). */
  const recent = new Map<string, number[]>();
  let queue: TelegramUpdate[] = [];
  /** Replayed updates: sent with the next answer whatever its offset (what a replaying proxy does). */
  let replays: TelegramUpdate[] = [];
  let calls = 0;
  let nextUpdateId = 500;
  let nextMessageId = 1;
  let inFlight = 0;
  let failing = 0;
  let described: { status: number; description: string } | undefined;
  let streaming = 0;
  const history = new Map<number, TelegramUpdate>();
  const waiting = new Set<() => void>();
  const fixture = {
    sent: [] as Array<{ chat_id: string; text: string; html: string | null; atMs?: number }>,
    tooMany: 0,
    polls: 0,
    maxInFlight: 0,
    streamed: 0,
    updateIds: [] as number[],
  };

  const answer = (response: ServerResponse, status: number, body: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  const server = createServer((request, response) => {
    void (async () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.url ?? '');
      const body = await bodyOf(request);
      if (match === null) return answer(response, 404, { ok: false, error_code: 404, description: 'Not Found' });
      if (match[1] !== BOT_TOKEN) return answer(response, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
      if (match[2] === 'getMe') return answer(response, 200, { ok: true, result: { id: 123456789, is_bot: true, username: BOT_USERNAME } });
      if (match[2] === 'sendMessage') {
        if (typeof body.text !== 'string')
          return answer(response, 400, { ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
        // HTML is parsed as Telegram does; the limit counts the text shown.
        const parsed = body.parse_mode === 'HTML' ? parseTelegramHtml(body.text) : { text: body.text };
        if ('error' in parsed) return answer(response, 400, { ok: false, error_code: 400, description: parsed.error });
        if (parsed.text.length > 4096)
          return answer(response, 400, { ok: false, error_code: 400, description: 'Bad Request: message is too long' });
        const limits = options.limits;
        if (limits !== undefined) {
          const nowMs = limits.clock.now();
          const times = (recent.get(String(body.chat_id)) ?? []).filter((at) => at > nowMs - 60_000);
          const last = times.at(-1);
          if ((last !== undefined && nowMs - last < limits.minGapMs) || times.length >= limits.perMinute) {
            fixture.tooMany += 1;
            const retryAfter = Math.max(1, Math.ceil(((times[0] ?? nowMs) + 60_000 - nowMs) / 1000));
            return answer(response, 429, {
              ok: false,
              error_code: 429,
              description: `Too Many Requests: retry after ${retryAfter}`,
              parameters: { retry_after: retryAfter },
            });
          }
          recent.set(String(body.chat_id), [...times, nowMs]);
        }
        fixture.sent.push({
          chat_id: String(body.chat_id),
          text: parsed.text,
          html: body.parse_mode === 'HTML' ? body.text : null,
          ...(limits === undefined ? {} : { atMs: limits.clock.now() }),
        });
        return answer(response, 200, { ok: true, result: { message_id: nextMessageId++ } });
      }
      if (match[2] !== 'getUpdates') return answer(response, 404, { ok: false, error_code: 404, description: 'Not Found' });
      fixture.polls += 1;
      const call = ++calls;
      inFlight += 1;
      fixture.maxInFlight = Math.max(fixture.maxInFlight, inFlight);
      try {
        if (failing > 0) {
          failing -= 1;
          return answer(response, 502, { ok: false, error_code: 502, description: 'Bad Gateway' });
        }
        if (described !== undefined) {
          const { status, description } = described;
          described = undefined;
          return answer(response, status, { ok: false, error_code: status, description: description.replace('{path}', request.url ?? '') });
        }
        if (streaming > 0) {
          const total = streaming;
          streaming = 0;
          return await stream(response, total);
        }
        const offset = typeof body.offset === 'number' ? body.offset : 0;
        queue = queue.filter((update) => update.update_id >= offset);
        if (queue.length === 0 && replays.length === 0) {
          const timeoutMs = (typeof body.timeout === 'number' ? body.timeout : 0) * 1000;
          await new Promise<void>((resolve) => {
            const wake = (): void => {
              clearTimeout(timer);
              waiting.delete(wake);
              resolve();
            };
            const timer = setTimeout(wake, timeoutMs);
            waiting.add(wake);
            response.on('close', wake);
          });
        }
        // Only the newest call takes the replays: an older one may be a stopped poller's, whose
        // socket the server has not seen close yet.
        const newest = call === calls;
        const result = [...(newest ? replays : []), ...queue.filter((update) => update.update_id >= offset)];
        if (newest) replays = [];
        return answer(response, 200, { ok: true, result });
      } finally {
        inFlight -= 1;
      }
    })();
  });
  /** `total` bytes of one long JSON string, in 64 KiB chunks, until written or the client hangs up. */
  async function stream(response: ServerResponse, total: number): Promise<void> {
    response.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let closed = false;
    response.on('close', () => (closed = true));
    response.write('{"ok":true,"result":[{"update_id":1,"padding":"');
    while (!closed && fixture.streamed < total) {
      fixture.streamed += chunk.length;
      if (!response.write(chunk)) await drainedOrClosed(response);
    }
    if (!closed) response.end('"}]}');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    get sent() {
      return fixture.sent;
    },
    get polls() {
      return fixture.polls;
    },
    get tooMany() {
      return fixture.tooMany;
    },
    get maxInFlight() {
      return fixture.maxInFlight;
    },
    get streamed() {
      return fixture.streamed;
    },
    get updateIds() {
      return fixture.updateIds;
    },
    replay(updateId) {
      const update = history.get(updateId);
      if (update === undefined) throw new Error(`no update ${updateId} was queued`);
      replays.push(update);
      for (const wake of [...waiting]) wake();
    },
    describeNext(status, description) {
      described = { status, description };
    },
    streamNext(bytes) {
      streaming = bytes;
    },
    say(chatId, text, dateMs = Date.now()) {
      const updateId = nextUpdateId++;
      fixture.updateIds.push(updateId);
      const update: TelegramUpdate = {
        update_id: updateId,
        message: {
          message_id: nextMessageId++,
          date: Math.floor(dateMs / 1000),
          chat: { id: chatId, type: 'private' },
          from: { id: chatId, username: 'lender' },
          text,
        },
      };
      history.set(updateId, update);
      queue.push(update);
      for (const wake of [...waiting]) wake();
    },
    failNext(count) {
      failing = count;
    },
    async waitForSent(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (fixture.sent.length < count) {
        if (Date.now() > until)
          throw new Error(`expected ${count} messages sent, got ${fixture.sent.length}: ${JSON.stringify(fixture.sent)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close() {
      for (const wake of [...waiting]) wake();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Waits until a full response buffer drains or the client hangs up, and takes both listeners
 * off either way: a loop that left the unfired one behind piled up a 'close' listener per full
 * buffer (node's MaxListenersExceededWarning).
 */
export function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done).on('close', done);
  });
}
