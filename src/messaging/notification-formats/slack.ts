/**
 * Slack incoming webhooks (https://api.slack.com/messaging/webhooks): `{ text, blocks }`, where
 * `text` is the notification's fallback line and `blocks` a mrkdwn section with the title, the
 * sentence and the figures as fields, then a context line with the time. Slack answers 200 with the
 * text "ok", or an error code as text ("invalid_blocks", "no_service", ...).
 *
 * Limits kept (Block Kit): section text 3,000 characters, at most 10 fields of 2,000 each per
 * section (more fields go into further sections), 50 blocks.
 */
import type { Severity } from './notification-message.js';
import { errorText, type NotificationFormat } from './notification-format.js';
import { clip, escapeHtml as escapeMrkdwn, utcTime } from './plain-words.js';

const MAX_SECTION_TEXT = 3000;
const MAX_FIELD_TEXT = 2000;
const FIELDS_PER_SECTION = 10;
const MAX_BLOCKS = 50;

const EMOJI: Record<Severity, string> = {
  info: ':information_source:',
  good: ':white_check_mark:',
  warning: ':warning:',
  bad: ':rotating_light:',
};

interface MrkdwnText {
  type: 'mrkdwn';
  text: string;
}

type SlackBlock = { type: 'section'; text?: MrkdwnText; fields?: MrkdwnText[] } | { type: 'context'; elements: MrkdwnText[] };

export const slackFormat: NotificationFormat = {
  name: 'slack',
  body({ message }) {
    const mrkdwn = (text: string, max: number): MrkdwnText => ({ type: 'mrkdwn', text: clip(text, max) });
    const title = `${EMOJI[message.severity]} *${escapeMrkdwn(message.title)}*`;
    const headline = message.description === undefined ? title : `${title}\n${escapeMrkdwn(message.description)}`;
    const fields = message.fields.map((field) => mrkdwn(`*${escapeMrkdwn(field.label)}*\n${escapeMrkdwn(field.value)}`, MAX_FIELD_TEXT));
    const blocks: SlackBlock[] = [
      {
        type: 'section',
        text: mrkdwn(headline, MAX_SECTION_TEXT),
        ...(fields.length > 0 ? { fields: fields.slice(0, FIELDS_PER_SECTION) } : {}),
      },
    ];
    for (let start = FIELDS_PER_SECTION; start < fields.length && blocks.length < MAX_BLOCKS - 1; start += FIELDS_PER_SECTION) {
      blocks.push({ type: 'section', fields: fields.slice(start, start + FIELDS_PER_SECTION) });
    }
    blocks.push({ type: 'context', elements: [mrkdwn(`lendbot · ${utcTime(message.at)}`, MAX_FIELD_TEXT)] });
    return { text: escapeMrkdwn(message.title), blocks };
  },
  refusal: (bodyText) => errorText(bodyText, ['error']),
};
