/**
 * The confirmation step of a tool that acts (see confirmation.ts for the two ways). Returns
 * `confirmed`, or the answer to give instead: nothing has been done at the service then.
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ElicitResultSchema,
  type CallToolResult,
  type ClientCapabilities,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { isoFromMs } from '../store/index.js';
import { codeProblem, type ConfirmationCodes } from './confirmation.js';
import { answer } from './tool-answer.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ConfirmRequest {
  tool: string;
  /** The tool's arguments as called (the code, if any, among them). */
  args: Record<string, unknown> & { confirmation_code?: string | undefined };
  tokenName: string;
  /** What would happen, in one sentence ("offer 0.25 on loan request 1042 ($5,000.00)"). */
  summary: string;
  /** The same as a value, for the structured answer. */
  preview: Record<string, unknown>;
}

export type Confirmation = { confirmed: true; via: 'elicitation' | 'code' } | { confirmed: false; result: CallToolResult };

/** Whether the client can be asked through a form (an empty elicitation capability means form). */
function canElicitForm(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (elicitation === undefined) return false;
  const modes = elicitation as { form?: unknown; url?: unknown };
  return modes.form !== undefined || modes.url === undefined;
}

export async function confirmAction(
  request: ConfirmRequest,
  deps: { codes: ConfirmationCodes; clientCapabilities: () => ClientCapabilities | undefined; extra: ToolExtra },
): Promise<Confirmation> {
  const { tool, args, tokenName, summary, preview } = request;
  const code = args.confirmation_code;
  if (code !== undefined) {
    const check = deps.codes.redeem(code, tool, args, tokenName);
    if (check === 'ok') return { confirmed: true, via: 'code' };
    const problem = codeProblem(check);
    return {
      confirmed: false,
      result: answer(`Nothing was done: ${problem}.`, { status: 'not_confirmed', problem, would: preview }, true),
    };
  }
  if (canElicitForm(deps.clientCapabilities())) {
    // Sent on the tool call's own stream, so the client shows it while the call is pending.
    const reply = await deps.extra.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: `lendbot asks you to confirm: ${summary}`,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Confirm', description: summary } },
            required: ['confirm'],
          },
        },
      },
      ElicitResultSchema,
    );
    if (reply.action === 'accept' && reply.content?.confirm === true) return { confirmed: true, via: 'elicitation' };
    const status = reply.action === 'accept' ? 'declined' : reply.action === 'decline' ? 'declined' : 'cancelled';
    return {
      confirmed: false,
      result: answer(`Nothing was done: the confirmation was ${status}.`, { status: 'not_confirmed', problem: status, would: preview }),
    };
  }
  const issued = deps.codes.issue(tool, args, tokenName);
  return {
    confirmed: false,
    result: answer(
      `Nothing was done yet. Would ${summary}. To do it, call ${tool} again with the same arguments and confirmation_code "${issued.code}" (valid for two minutes, once).`,
      { status: 'confirmation_required', confirmation_code: issued.code, expires_at: isoFromMs(issued.expiresAtMs), would: preview },
    ),
  };
}
