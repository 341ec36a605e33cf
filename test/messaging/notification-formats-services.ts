/**
 * Real HTTP servers on free ports standing in for Slack, Discord and Telegram: each checks a
 * request the way the real service does (path, method, content type, required fields, types,
 * limits) and answers the way it does, success and refusal alike. What they accept is what the
 * service documents, so a payload they take is one the service would take.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ServiceRequest {
  path: string;
  contentType: string | undefined;
  body: unknown;
}

export interface FixtureService {
  /** The base address (http://127.0.0.1:PORT). */
  origin: string;
  /** Every request received, accepted or not. */
  requests: ServiceRequest[];
  /** What each refused request was refused for. */
  refusals: string[];
  close(): Promise<void>;
}

interface Answer {
  status: number;
  contentType?: string;
  body?: string;
}

type Handler = (request: ServiceRequest) => Answer;

async function startService(handler: Handler, refusalOf: (answer: Answer) => string | undefined): Promise<FixtureService> {
  const requests: ServiceRequest[] = [];
  const refusals: string[] = [];
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    let text = '';
    incoming.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    incoming.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      const request: ServiceRequest = { path: incoming.url ?? '', contentType: incoming.headers['content-type'], body };
      requests.push(request);
      const answer = incoming.method === 'POST' ? handler(request) : { status: 405, body: 'method not allowed' };
      const refusal = answer.status >= 400 ? refusalOf(answer) : undefined;
      if (refusal !== undefined) refusals.push(refusal);
      response
        .writeHead(answer.status, answer.contentType === undefined ? {} : { 'content-type': answer.contentType })
        .end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    refusals,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const isJson = (contentType: string | undefined): boolean => contentType?.split(';')[0]?.trim() === 'application/json';
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const isText = (value: unknown, max: number, min = 1): value is string =>
  typeof value === 'string' && value.length >= min && value.length <= max;

// ---------------------------------------------------------------- Slack
/** The path of the incoming webhook the Slack fixture serves (as hooks.slack.com/services/T/B/X). */
export const SLACK_PATH = '/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';

/** Slack Block Kit rules for the block types a message may use here; the reason or undefined. */
function slackProblem(body: unknown): string | undefined {
  if (!isObject(body)) return 'invalid_payload';
  if (body.text === undefined && body.blocks === undefined) return 'no_text';
  if (body.text !== undefined && !isText(body.text, 40_000)) return 'invalid_payload';
  if (body.blocks === undefined) return undefined;
  if (!Array.isArray(body.blocks) || body.blocks.length === 0 || body.blocks.length > 50) return 'invalid_blocks';
  const textObject = (value: unknown, max: number): boolean =>
    isObject(value) && (value.type === 'mrkdwn' || value.type === 'plain_text') && isText(value.text, max);
  for (const block of body.blocks as unknown[]) {
    if (!isObject(block)) return 'invalid_blocks';
    if (block.type === 'section') {
      if (block.text === undefined && block.fields === undefined) return 'invalid_blocks';
      if (block.text !== undefined && !textObject(block.text, 3000)) return 'invalid_blocks';
      if (block.fields !== undefined) {
        if (!Array.isArray(block.fields) || block.fields.length === 0 || block.fields.length > 10) return 'invalid_blocks';
        if (!block.fields.every((field) => textObject(field, 2000))) return 'invalid_blocks';
      }
    } else if (block.type === 'context') {
      if (!Array.isArray(block.elements) || block.elements.length === 0 || block.elements.length > 10) return 'invalid_blocks';
      if (!block.elements.every((element) => textObject(element, 3000))) return 'invalid_blocks';
    } else if (block.type === 'header') {
      if (!isObject(block.text) || block.text.type !== 'plain_text' || !isText(block.text.text, 150)) return 'invalid_blocks';
    } else if (block.type !== 'divider') return 'invalid_blocks';
  }
  return undefined;
}

/** Slack answers 200 "ok", or 400/404 with an error code as plain text. */
export function startSlack(): Promise<FixtureService> {
  return startService(
    (request) => {
      if (request.path !== SLACK_PATH) return { status: 404, contentType: 'text/plain', body: 'no_service' };
      if (!isJson(request.contentType)) return { status: 400, contentType: 'text/plain', body: 'invalid_payload' };
      const problem = slackProblem(request.body);
      return problem === undefined
        ? { status: 200, contentType: 'text/plain', body: 'ok' }
        : { status: 400, contentType: 'text/plain', body: problem };
    },
    (answer) => answer.body,
  );
}

// ---------------------------------------------------------------- Discord
export const DISCORD_PATH = '/api/webhooks/123456789012345678/fixture-webhook-token';

/** Discord's embed limits; the first problem found, or undefined. */
function discordProblem(body: unknown): string | undefined {
  if (!isObject(body)) return 'body is not an object';
  const { content, embeds } = body;
  if (content === undefined && embeds === undefined) return 'Cannot send an empty message';
  if (content !== undefined && !isText(content, 2000)) return 'content: must be 2000 or fewer in length';
  if (embeds === undefined) return undefined;
  if (!Array.isArray(embeds) || embeds.length > 10) return 'embeds: must be 10 or fewer in length';
  for (const embed of embeds as unknown[]) {
    if (!isObject(embed)) return 'embeds.0: not an object';
    let total = 0;
    if (embed.title !== undefined) {
      if (!isText(embed.title, 256)) return 'embeds.0.title: must be 256 or fewer in length';
      total += embed.title.length;
    }
    if (embed.description !== undefined) {
      if (!isText(embed.description, 4096)) return 'embeds.0.description: must be 4096 or fewer in length';
      total += embed.description.length;
    }
    if (
      embed.color !== undefined &&
      !(Number.isInteger(embed.color) && (embed.color as number) >= 0 && (embed.color as number) <= 0xffffff)
    )
      return 'embeds.0.color: not a colour';
    if (
      embed.timestamp !== undefined &&
      !(typeof embed.timestamp === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(embed.timestamp))
    )
      return 'embeds.0.timestamp: not ISO8601';
    if (embed.footer !== undefined) {
      if (!isObject(embed.footer) || !isText(embed.footer.text, 2048)) return 'embeds.0.footer.text: must be 2048 or fewer in length';
      total += embed.footer.text.length;
    }
    if (embed.fields !== undefined) {
      if (!Array.isArray(embed.fields) || embed.fields.length > 25) return 'embeds.0.fields: must be 25 or fewer in length';
      for (const field of embed.fields as unknown[]) {
        if (!isObject(field)) return 'embeds.0.fields.0: not an object';
        if (!isText(field.name, 256)) return 'embeds.0.fields.0.name: must be between 1 and 256 in length';
        if (!isText(field.value, 1024)) return 'embeds.0.fields.0.value: must be between 1 and 1024 in length';
        if (field.inline !== undefined && typeof field.inline !== 'boolean') return 'embeds.0.fields.0.inline: not a boolean';
        total += field.name.length + field.value.length;
      }
    }
    if (total > 6000) return 'embeds: the total of all embed text must be 6000 or fewer';
  }
  return undefined;
}

/** Discord answers 204 without a body, or 4xx with `{ message, code }`. */
export function startDiscord(): Promise<FixtureService> {
  const error = (status: number, message: string, code: number): Answer => ({
    status,
    contentType: 'application/json',
    body: JSON.stringify({ message, code }),
  });
  return startService(
    (request) => {
      if (request.path !== DISCORD_PATH) return error(404, 'Unknown Webhook', 10015);
      if (!isJson(request.contentType)) return error(400, 'Cannot send an empty message', 50006);
      const problem = discordProblem(request.body);
      return problem === undefined
        ? { status: 204 }
        : {
            ...error(400, 'Invalid Form Body', 50035),
            body: JSON.stringify({ message: 'Invalid Form Body', code: 50035, errors: problem }),
          };
    },
    (answer) => answer.body,
  );
}

// ---------------------------------------------------------------- Telegram
export const TELEGRAM_TOKEN = '123456789:AAFixtureTokenFixtureTokenFixture_ab';
export const TELEGRAM_CHAT_ID = '-1001234567890';

const TELEGRAM_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'a',
  'code',
  'pre',
  'tg-spoiler',
  'blockquote',
  'span',
  'tg-emoji',
]);

/**
 * Parses Telegram's HTML the way the Bot API does for parse_mode HTML: known tags only, properly
 * nested; `<`, `>` and `&` in text escaped (named entities lt, gt, amp, quot, or numeric).
 * Returns the visible text, or the API's error description.
 */
export function parseTelegramHtml(html: string): { text: string } | { error: string } {
  const open: string[] = [];
  let text = '';
  let index = 0;
  while (index < html.length) {
    const char = html[index] as string;
    if (char === '<') {
      const end = html.indexOf('>', index);
      if (end < 0) return { error: `Bad Request: can't parse entities: Unsupported start tag at byte offset ${index}` };
      const tag = html.slice(index + 1, end);
      const closing = tag.startsWith('/');
      const name = (closing ? tag.slice(1) : tag).split(/\s/)[0]?.toLowerCase() ?? '';
      if (!TELEGRAM_TAGS.has(name))
        return { error: `Bad Request: can't parse entities: Unsupported start tag "${name}" at byte offset ${index}` };
      if (closing) {
        if (open.pop() !== name)
          return { error: `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "${name}"` };
      } else open.push(name);
      index = end + 1;
    } else if (char === '&') {
      const match = /^&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/i.exec(html.slice(index));
      if (!match) return { error: `Bad Request: can't parse entities: Character entity expected at byte offset ${index}` };
      text += { lt: '<', gt: '>', amp: '&', quot: '"' }[match[1]?.toLowerCase() ?? ''] ?? '?';
      index += match[0].length;
    } else if (char === '>') {
      return { error: `Bad Request: can't parse entities: Unexpected end tag at byte offset ${index}` };
    } else {
      text += char;
      index += 1;
    }
  }
  if (open.length > 0)
    return { error: `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "${open.at(-1)}"` };
  return { text };
}

/**
 * Telegram answers 200 `{ ok: true, result: Message }`, or an error status with
 * `{ ok: false, error_code, description }`. Only `chatId` exists: another chat is "chat not found".
 */
export function startTelegram(chatId = TELEGRAM_CHAT_ID): Promise<FixtureService> {
  const error = (status: number, description: string): Answer => ({
    status,
    contentType: 'application/json',
    body: JSON.stringify({ ok: false, error_code: status, description }),
  });
  let messageId = 0;
  return startService(
    (request) => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.path);
      if (!match) return error(404, 'Not Found');
      if (match[1] !== TELEGRAM_TOKEN) return error(401, 'Unauthorized');
      if (match[2] !== 'sendMessage') return error(404, 'Not Found');
      if (!isJson(request.contentType) || !isObject(request.body)) return error(400, 'Bad Request: message text is empty');
      const { chat_id, text, parse_mode } = request.body;
      if (chat_id === undefined) return error(400, 'Bad Request: chat_id is empty');
      if (typeof chat_id !== 'string' && typeof chat_id !== 'number') return error(400, 'Bad Request: chat not found');
      if (String(chat_id) !== chatId) return error(400, 'Bad Request: chat not found');
      if (typeof text !== 'string' || text.trim() === '') return error(400, 'Bad Request: message text is empty');
      if (parse_mode !== undefined && parse_mode !== 'HTML' && parse_mode !== 'MarkdownV2' && parse_mode !== 'Markdown')
        return error(400, 'Bad Request: unsupported parse_mode');
      let visible = text;
      if (parse_mode === 'HTML') {
        const parsed = parseTelegramHtml(text);
        if ('error' in parsed) return error(400, parsed.error);
        visible = parsed.text;
      }
      if (visible.length > 4096) return error(400, 'Bad Request: message is too long');
      messageId += 1;
      const result = { message_id: messageId, date: 1773144000, chat: { id: Number(chatId), type: 'supergroup' }, text: visible };
      return { status: 200, contentType: 'application/json', body: JSON.stringify({ ok: true, result }) };
    },
    (answer) =>
      answer.body === undefined ? undefined : ((JSON.parse(answer.body) as { description?: string }).description ?? answer.body),
  );
}
