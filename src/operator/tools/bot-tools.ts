/**
 * The bot's own tools: its status, its decisions and why, and pausing or resuming its offers.
 * A pause is the protections' pause (kind `operator`): the running daemon reads it before every
 * offer, `lendbot status` shows it, and `lendbot resume` lifts it too.
 */
import { z } from 'zod';
import { guardReasonOf, reasonText } from '../../domain/decision-reason.js';
import { reasonWords } from '../../log/human-reasons.js';
import { decisionJson, type DecisionJson } from '../../domain/decision-json.js';
import { lossRatesFromConfig } from '../../money/loss-rates-config.js';
import { pauseJson } from '../../ops/protections/index.js';
import { buildStatusReport } from '../../ops/status-report.js';
import { formatCents } from '../../domain/index.js';
import type { StoredDecision } from '../../store/index.js';
import { confirmAction } from '../confirm-action.js';
import { explainNow } from '../explain-now.js';
import { findOpenRequest } from '../find-request.js';
import { answer } from '../tool-answer.js';
import { marketplaceAnswer, reasonsApart } from '../untrusted-data.js';
import type { ToolDeps } from '../agent-context.js';

/** A decision as listed (the one decision shape); the service's words in its reasons go onto `texts` (reasonsApart). */
function summaryOf(decision: StoredDecision, texts: string[]): DecisionJson {
  return { ...decisionJson(decision), reasons: reasonsApart(decision.reasonValues, texts) };
}

/**
 * The strategies' decision an agent's replaced (kept whole in the store), its reasons taken apart
 * too: shown as their values (read at the store's edge), never as the values' JSON, which holds
 * the service's words that go only under untrusted data.
 */
function previousApart(stored: StoredDecision, texts: string[]): unknown {
  const { previous, previousReasonValues } = stored;
  if (previousReasonValues === null || previous === null || typeof previous !== 'object') return previous;
  const { reasonValues: _values, ...rest } = previous as { reasonValues?: unknown };
  return { ...rest, reasons: reasonsApart(previousReasonValues, texts) };
}

export function registerBotTools({ server, context, caller, codes }: ToolDeps): void {
  server.registerTool(
    'get_status',
    {
      title: "The bot's status",
      description:
        'Balance, reserved and free cash, exposure, offers today against the caps, loans, data spend, last poll, inbox, kill switch and any pause (as lendbot status).',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    async () => {
      const budgets = context
        .strategies()
        .map((strategy) => ({ strategy: strategy.name, monthlyBudgetCents: strategy.dataPolicy.monthlyBudgetCents }));
      const report = buildStatusReport({
        store: context.store,
        nowMs: context.clock.now(),
        limits: context.limits(),
        budgets,
        dryRun: context.dryRun,
        // Equity as lendbot status and get_balance give it.
        equityLossRates: lossRatesFromConfig(context.config),
      });
      const paused = report.pause === null ? 'not paused' : `PAUSED (${report.pause.reason})`;
      const text = `${context.mode}${context.dryRun ? ' dry run' : ''}, ${paused}; free $${formatCents(report.freeCents)} of $${formatCents(report.balanceCents)}; ${report.offersToday.offers} offers today; kill switch ${report.killSwitch.on ? 'ON' : 'off'}.`;
      return answer(text, { mode: context.mode, dry_run: context.dryRun, strategies: context.strategies().map((s) => s.name), ...report });
    },
  );

  server.registerTool(
    'list_decisions',
    {
      title: "The bot's decisions",
      description:
        'The recorded decisions, latest first: offer or skip, with machine-readable reasons. Filters: action, strategy, since, request id.',
      inputSchema: {
        action: z.enum(['offer', 'skip']).optional(),
        strategy: z.string().optional().describe('strategy name'),
        since: z.iso.datetime({ offset: true }).optional().describe('ISO time, e.g. 2026-03-10T00:00:00Z'),
        loan_request_id: z.number().int().positive().optional(),
        limit: z.number().int().min(1).max(500).default(50),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) => {
      const found: StoredDecision[] = [];
      if (args.loan_request_id !== undefined) {
        const one = context.store.decisions.get(args.loan_request_id);
        if (one !== undefined) found.push(one);
      } else {
        const sinceMs = args.since === undefined ? undefined : Date.parse(args.since);
        for (const decision of context.store.decisions.iterate({ action: args.action, sinceMs, order: 'desc' })) {
          if (args.strategy !== undefined && decision.strategy !== args.strategy) continue;
          found.push(decision);
          if (found.length >= args.limit) break;
        }
      }
      const kept = found.filter(
        (d) => (args.action === undefined || d.action === args.action) && (args.strategy === undefined || d.strategy === args.strategy),
      );
      const offers = kept.filter((d) => d.action === 'offer').length;
      const texts: string[] = [];
      const decisions = kept.map((decision) => summaryOf(decision, texts));
      return marketplaceAnswer(
        `${kept.length} decisions (${offers} offers, ${kept.length - offers} skips).`,
        { decisions },
        { service_texts: texts },
      );
    },
  );

  server.registerTool(
    'explain_decision',
    {
      title: 'Why the bot did (not) offer',
      description:
        "One request's decision: the strategy's reasons, the features and their contributions, the score, the price and the guard's verdict. For a request not decided yet, what the bot would decide now on the data already bought (nothing is bought).",
      inputSchema: { loan_request_id: z.number().int().positive() },
      annotations: { readOnlyHint: true },
    },
    async (args) => {
      const stored = context.store.decisions.get(args.loan_request_id);
      if (stored !== undefined) {
        const refusal = guardReasonOf(stored.reasonValues);
        const verdict =
          stored.guardCode === null
            ? stored.action === 'offer' || stored.placement !== null
              ? 'allowed'
              : 'not asked'
            : `refused (${stored.guardCode})`;
        const texts: string[] = [];
        const reasons = reasonsApart(stored.reasonValues, texts);
        // The sentence in words (the data keeps the machine reasons); the same pointers.
        const words = reasonsApart(stored.reasonValues, [], reasonWords);
        return marketplaceAnswer(
          `Request ${stored.loanRequestId}: ${stored.action} by ${stored.source ?? `strategy ${stored.strategy ?? '(none)'}`}: ${words.join('; ')}.`,
          {
            ...decisionJson(stored),
            reasons,
            decided: true,
            features: stored.features,
            guard: {
              verdict,
              code: stored.guardCode,
              reason: refusal === undefined ? null : reasonText(refusal),
              words: refusal === undefined ? null : reasonWords(refusal),
            },
            previous: previousApart(stored, texts),
          },
          { service_texts: texts },
        );
      }
      const request = await findOpenRequest(context.client, args.loan_request_id);
      if (request === undefined) {
        return answer(
          `Loan request ${args.loan_request_id} was never decided and is not open.`,
          { loan_request_id: args.loan_request_id, decided: false, open: false },
          true,
        );
      }
      const outcome = await explainNow(context, request);
      const { decision } = outcome;
      const guard =
        outcome.guard === undefined
          ? { verdict: 'not asked' }
          : outcome.guard.allowed
            ? { verdict: 'allowed' }
            : {
                verdict: 'refused',
                code: outcome.guard.code,
                reason: reasonText(outcome.guard.reason),
                words: reasonWords(outcome.guard.reason),
              };
      const texts: string[] = [];
      const reasons = reasonsApart(outcome.reasons, texts);
      const words = reasonsApart(outcome.reasons, [], reasonWords);
      return marketplaceAnswer(
        `Request ${request.id} (not decided yet) would be: ${outcome.action}, by strategy ${decision.strategy.name}: ${words.join('; ')}.`,
        {
          loan_request_id: request.id,
          decided: false,
          would: outcome.action,
          strategy: decision.strategy.name,
          reasons,
          features: decision.features,
          contributions: decision.contributions,
          probability: decision.probability ?? null,
          rate: decision.rate ?? null,
          guard,
        },
        { service_texts: texts },
      );
    },
  );

  server.registerTool(
    'pause_offers',
    {
      title: 'Pause new offers',
      description:
        'Stop the bot from making new offers until resume_offers (or lendbot resume). Offers already made are unaffected. Takes effect at the next request.',
      inputSchema: { reason: z.string().max(200).optional().describe('shown in the status and the notifications') },
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    async (args) => {
      const who = `agent:${caller.tokenName}${args.reason ? ` (${args.reason})` : ''}`;
      const { pause, already } = context.protections.pauseByOperator(who);
      const view = { paused: true, already_paused: already, ...pauseJson(pause) };
      return answer(already ? `Already paused: ${pause.reason}.` : `New offers paused: ${pause.reason}.`, view);
    },
  );

  server.registerTool(
    'resume_offers',
    {
      title: 'Resume new offers',
      description:
        "Lift the pause of new offers (an agent's or a protection's). Needs confirmation (elicitation, or a second call with the code the first returns).",
      inputSchema: { confirmation_code: z.string().optional().describe('the code a first call answered with') },
      annotations: { readOnlyHint: false },
    },
    async (args, extra) => {
      const pause = context.protections.activePause();
      if (pause === undefined) return answer('Nothing to resume: new offers are not paused.', { paused: false });
      const summary = `lift the ${pause.kind} pause (${pause.reason}) and let the bot make new offers again`;
      const confirmation = await confirmAction(
        { tool: 'resume_offers', args, tokenName: caller.tokenName, summary, preview: { kind: pause.kind, reason: pause.reason } },
        { codes, clientCapabilities: () => server.server.getClientCapabilities(), extra },
      );
      if (!confirmation.confirmed) return confirmation.result;
      const lifted = context.protections.resume();
      context.log.info({ agent: `agent:${caller.tokenName}`, kind: lifted?.kind }, 'agent resumed offers');
      return answer(`Resumed: the ${lifted?.kind ?? pause.kind} pause is lifted; new offers resume at the next request.`, {
        paused: false,
        lifted: lifted?.kind ?? null,
      });
    },
  );
}
