/**
 * `lendbot approve [ID]` and `lendbot reject ID`: a person's decision on an agent's offer proposal
 * (docs/agent-connector.md, "Proposals"), from a shell on the daemon's machine. Like `lendbot
 * resume`, they write the database the daemon reads (no token is needed: whoever can run them
 * can read the database and the daemon's credentials anyway). Approving only records the
 * decision; the running daemon places the offer within a second or so (its ProposalRunner: is
 * the request still open, the guard again on a fresh snapshot, the offer path that never sends
 * twice), and `approve` waits for that outcome and prints it. Without an ID, `approve` lists the
 * proposals waiting.
 */
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { systemClock } from '../../../clock/clock.js';
import {
  approveProposal,
  explanationOf,
  proposalHeadline,
  proposalLink,
  proposalStateText,
  rejectProposal,
} from '../../../proposals/index.js';
import type { Store, StoredProposal } from '../../../store/index.js';
import type { CliIo } from '../../cli-io.js';
import { withDaemonStore } from '../../daemon-store.js';
import { examplesHelp } from '../../examples-help.js';
import { UserError } from '../../user-error.js';
import { DEFAULT_CONFIG_FILE } from '../../default-config-file.js';

interface DecideOptions {
  db?: string;
  config?: string;
  as?: string;
}

const POLL_MS = 250;
const DEFAULT_WAIT_SECONDS = 30;

function parseId(text: string): number {
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id <= 0)
    throw new UserError(`a proposal id is a positive whole number (got "${text}"); lendbot approve lists them`);
  return id;
}

function parseWait(text: string): number {
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 3600)
    throw new UserError(`--wait takes seconds from 0 to 3600 (got "${text}")`);
  return seconds;
}

/** Who decided, as the proposal keeps it: `cli:NAME`. */
function deciderOf(options: DecideOptions, io: CliIo): string {
  const name = options.as ?? io.env.USER ?? io.env.LOGNAME ?? safeUserName();
  if (!/^[\w.@-]{1,40}$/.test(name)) throw new UserError(`--as takes a short name of letters, digits, . _ @ - (got "${name}")`);
  return `cli:${name}`;
}

function safeUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}

/** The waiting proposals, each with what the person should read before deciding. */
function pendingText(store: Store): string {
  store.proposals.expireDue(systemClock.now());
  const waiting = store.proposals.list({ statuses: ['pending'], limit: 100 }).reverse();
  if (waiting.length === 0) return 'no proposal waits for a person\n';
  const lines = [
    `${waiting.length} ${waiting.length === 1 ? 'proposal waits' : 'proposals wait'} for a person (lendbot approve ID, lendbot reject ID):`,
  ];
  for (const proposal of waiting) lines.push(...describe(store, proposal));
  return `${lines.join('\n')}\n`;
}

function describe(store: Store, proposal: StoredProposal): string[] {
  const explanation = explanationOf(proposal);
  const lines = [`  #${proposal.id}  ${proposalHeadline(proposal)}; ${proposalStateText(proposal)}`];
  if (explanation.why) lines.push(`      why a person: ${explanation.why}`);
  if (explanation.guard)
    lines.push(
      `      guard when asked: ${explanation.guard.allowed ? 'allowed' : `refused (${explanation.guard.reason ?? explanation.guard.code ?? '?'})`}; it is asked again when approved`,
    );
  const strategy = explanation.strategy;
  if (strategy) {
    const rate = strategy.rate === null ? '' : ` at ${strategy.rate}`;
    const probability = strategy.probability === null ? '' : `, P(repay) ${strategy.probability.toFixed(3)}`;
    lines.push(`      the bot's own view: ${strategy.name} would ${strategy.would}${rate}${probability}: ${strategy.reasons.join('; ')}`);
  }
  const link = proposalLink(store.state, proposal.id);
  if (link) lines.push(`      on the dashboard: ${link}`);
  return lines;
}

/** Waits for the running daemon to place an approved proposal; undefined when the wait ran out. */
async function placedWithin(store: Store, id: number, seconds: number): Promise<StoredProposal | undefined> {
  const deadline = systemClock.now() + seconds * 1000;
  for (;;) {
    const now = store.proposals.get(id);
    if (now !== undefined && now.status !== 'approved' && now.status !== 'placing') return now;
    if (systemClock.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const dbOption = [
  '--db <path>',
  'SQLite file (default: LENDBOT_DB, then the config, then data/lendbot.db, else data/sandbox.db of npm start)',
] as const;
const configOption = [
  '--config <file>',
  `configuration file, for the database path (default ${DEFAULT_CONFIG_FILE} when it exists)`,
] as const;
const asOption = ['--as <name>', 'who decides, kept with the proposal as cli:NAME (default $USER)'] as const;

export function registerApproveCommand(program: Command, io: CliIo): void {
  program
    .command('approve')
    .description("approve an agent's offer proposal (the running daemon places it), or list those waiting")
    .argument('[id]', 'the proposal (without it: list the proposals waiting)')
    .option(...dbOption)
    .option(...configOption)
    .option(...asOption)
    .option('--wait <seconds>', `how long to wait for the daemon to place it (default ${DEFAULT_WAIT_SECONDS}; 0: do not wait)`)
    .addHelpText(
      'after',
      `
An agent's place_offer beyond its token's allowance waits as a proposal until a person approves
it (here, or on the dashboard signed in with LENDBOT_OPERATOR_TOKEN), rejects it, or it expires
(ops.proposal_expiry_minutes). Approving records your decision in the database; the running
daemon on that database places the offer within a second or so, asking the guard again first,
and this command prints what became of it. Approving one that was decided or expired changes
nothing and says why (exit 1).
${examplesHelp(
  ['lendbot approve', 'the proposals waiting, with why and what the guard and the bot said'],
  ['lendbot approve 12', 'approve proposal 12 and print what became of its offer'],
  ['lendbot approve 12 --as alice --wait 60', 'recorded as cli:alice; wait up to a minute'],
  ['lendbot approve 12 --db /data/lendbot.db', 'the daemon in docker: docker exec lendbot node bin/lendbot.js approve 12'],
)}`,
    )
    .action(async (idText: string | undefined, options: DecideOptions & { wait?: string }) => {
      const wait = options.wait === undefined ? DEFAULT_WAIT_SECONDS : parseWait(options.wait);
      await withDaemonStore(options, io, async (store) => {
        if (idText === undefined) {
          io.stdout.write(pendingText(store));
          return;
        }
        const id = parseId(idText);
        const decision = approveProposal({ store, clock: systemClock }, id, deciderOf(options, io));
        if (!decision.changed) throw new UserError(decision.message);
        io.stdout.write(`${decision.message}\n`);
        if (wait === 0) {
          io.stdout.write('the running daemon places it; lendbot approve lists what still waits\n');
          return;
        }
        const done = await placedWithin(store, id, wait);
        if (done === undefined) {
          io.stdout.write(
            `no running daemon placed it within ${wait} s: lendbot run on this database places it when it runs, until ${decision.proposal.expiresAt}\n`,
          );
          return;
        }
        const outcome = `proposal ${id} ${proposalStateText(done)}`;
        if (done.outcome !== 'placed') throw new UserError(outcome);
        io.stdout.write(`${outcome}\n`);
      });
    });
}

export function registerRejectCommand(program: Command, io: CliIo): void {
  program
    .command('reject')
    .description("reject an agent's offer proposal: it is never placed")
    .argument('<id>', 'the proposal (lendbot approve lists them)')
    .option('--reason <text>', 'why, kept with the proposal (the agent reads it with get_proposal)')
    .option(...dbOption)
    .option(...configOption)
    .option(...asOption)
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot reject 12', 'proposal 12 is never placed'],
        ['lendbot reject 12 --reason "too large for this borrower"', 'the agent reads the reason with get_proposal'],
        ['lendbot reject 12 --db /data/lendbot.db --as alice', 'that database, decided as cli:alice'],
      ),
    )
    .action(async (idText: string, options: DecideOptions & { reason?: string }) => {
      const id = parseId(idText);
      const reason = options.reason?.trim().slice(0, 200);
      await withDaemonStore(options, io, async (store) => {
        const decision = rejectProposal({ store, clock: systemClock }, id, deciderOf(options, io), reason === '' ? undefined : reason);
        if (!decision.changed) throw new UserError(decision.message);
        io.stdout.write(`${decision.message}\n`);
      });
    });
}
