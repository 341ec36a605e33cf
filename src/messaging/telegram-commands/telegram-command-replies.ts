/**
 * What each Telegram command does and answers, in plain text. The figures are the ones every
 * other view shows: /status is `lendbot status` (status-text.ts), /profit the digest's figures
 * over the last 30 days of the run's clock; /pause and /resume go through the protections the
 * dashboard, the agent connector and `lendbot resume` use; /approve and /reject record a
 * person's decision on an agent's proposal as `lendbot approve` does (the daemon then places it).
 */
import { digestData } from '../digest/digest-sender.js';
import type { DigestFiguresProvider } from '../digest/digest-figures.js';
import { describeNotification } from '../notification-formats/notification-message.js';
import type { StatusReport } from '../../ops/status-report.js';
import { formatStatusText } from '../../ops/status-text.js';

/** A person's decision on a proposal, as `lendbot approve` makes it (src/proposals/). */
export interface ProposalDecider {
  approve(id: number, by: string): { message: string };
  reject(id: number, by: string): { message: string };
}

/**
 * The pause as /pause and /resume touch it: the daemon passes its protections
 * (src/ops/protections/protections.ts, `Protections`), which fit this shape. Written here so
 * messaging reads operations only through the status report.
 */
export interface OperatorPause {
  pauseByOperator(why: string): { pause: { reason: string }; already: boolean };
  /** The pause lifted, or undefined when nothing was paused. */
  resume(): { kind: string } | undefined;
}

export interface CommandActions {
  /** The status report now, on the run's clock. */
  status(): StatusReport;
  figures: DigestFiguresProvider;
  /** The run's clock, for /profit's period. */
  nowMs(): number;
  protections: OperatorPause;
  /** Absent where proposals do not exist (no operator listener). */
  proposals?: ProposalDecider | undefined;
}

const PROFIT_DAYS = 30;

const COMMANDS_HELP = [
  'Commands:',
  '/status - balance, free cash, exposure, offers today, pause',
  `/profit - earned, lost and idle over the last ${PROFIT_DAYS} days`,
  '/pause [reason] - pause new offers',
  '/resume - allow new offers again',
  "/approve ID - approve an agent's proposal",
  "/reject ID - reject an agent's proposal",
].join('\n');

/**
 * The command of a message, its argument and the bot it names, if any ("/pause@lendbot_bot going
 * away" → pause, "going away", lendbot_bot). In a group every bot sees a command; one naming
 * another bot is not for lendbot (the poller ignores it).
 */
export function parseCommand(text: string): { name: string; argument: string; bot?: string } | undefined {
  const match = /^\/([a-z_]+)(?:@(\w+))?(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (match === null) return undefined;
  return { name: (match[1] ?? '').toLowerCase(), argument: (match[3] ?? '').trim(), ...(match[2] === undefined ? {} : { bot: match[2] }) };
}

function profitText(actions: CommandActions): string {
  const nowMs = actions.nowMs();
  const period = { fromMs: nowMs - PROFIT_DAYS * 86_400_000, toMs: nowMs + 1 };
  const data = digestData('day', period, actions.figures, nowMs);
  const message = describeNotification('digest', data, new Date(nowMs).toISOString());
  return [`Last ${PROFIT_DAYS} days by the run's clock`, ...message.fields.map((field) => `${field.label}: ${field.value}`)].join('\n');
}

function proposalId(argument: string): number | undefined {
  return /^\d{1,15}$/.test(argument) ? Number(argument) : undefined;
}

/** An answer: plain text, or aligned columns to show in a fixed-width font. */
export interface CommandAnswer {
  text: string;
  monospace?: boolean;
}

/** The answer to one command from an allowed chat; `by` names the person for the records. */
export function answerCommand(actions: CommandActions, text: string, by: string): CommandAnswer {
  // The status lines are aligned columns: a fixed-width font keeps them so on a phone.
  if (parseCommand(text)?.name === 'status') return { text: formatStatusText(actions.status()).trimEnd(), monospace: true };
  return { text: answerText(actions, text, by) };
}

function answerText(actions: CommandActions, text: string, by: string): string {
  const command = parseCommand(text);
  if (command === undefined) return COMMANDS_HELP;
  switch (command.name) {
    case 'profit':
      return profitText(actions);
    case 'pause': {
      const who = `Telegram (${by})${command.argument ? `: ${command.argument}` : ''}`;
      const { pause, already } = actions.protections.pauseByOperator(who);
      return already ? `New offers were already paused: ${pause.reason}` : 'New offers paused. Send /resume to allow them again.';
    }
    case 'resume': {
      const lifted = actions.protections.resume();
      return lifted === undefined
        ? 'Nothing was paused: new offers are allowed.'
        : `New offers allowed again (the ${lifted.kind} pause is lifted).`;
    }
    case 'approve':
    case 'reject': {
      if (actions.proposals === undefined)
        return 'Proposals are not available here: agents can only propose through the daemon’s operator listener.';
      const id = proposalId(command.argument);
      if (id === undefined) return `Say which proposal: /${command.name} 12`;
      const decision =
        command.name === 'approve' ? actions.proposals.approve(id, `telegram:${by}`) : actions.proposals.reject(id, `telegram:${by}`);
      return decision.message;
    }
    default:
      return COMMANDS_HELP;
  }
}
