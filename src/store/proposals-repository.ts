/**
 * Offer proposals: the offers agents asked for through the connector (src/proposals/).
 *
 *   pending ──a person approves──> approved ──claimed──> placing ──> done (outcome)
 *      ├──a person rejects──> rejected
 *      ├──expires_at passes──> expired          (an approval no daemon took up in time, too)
 *      └──its loan request closes──> expired    (expires_at moved to then, the note says why)
 *
 * An offer within its token's allowance is written straight as `placing`, decided by
 * `allowance`, in the same transaction that sums the allowance already used that day: two agent
 * calls at once (or two processes on one file) never both fit in the last of it.
 *
 * Every change of state is one conditional UPDATE (`WHERE status = ...`), so approving twice,
 * or approving a proposal that expired or was rejected meanwhile, changes nothing.
 */
import type { Database } from 'better-sqlite3';
import type { Cents } from '../domain/index.js';
import { flag, isoFromMs, parseJsonColumn } from './sql-values.js';

export const PROPOSAL_STATUSES = ['pending', 'approved', 'placing', 'done', 'rejected', 'expired'] as const;
type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/** What became of an approved proposal's offer (`done` rows). */
export type ProposalOutcome = 'placed' | 'unknown' | 'refused' | 'refused_by_guard' | 'already_offered' | 'exists' | 'not_open' | 'failed';

/** The decider of offers placed within a token's allowance (no person asked). */
export const ALLOWANCE_DECIDER = 'allowance';

/** What an agent asked for, as stored. */
interface ProposalFields {
  tokenName: string;
  loanRequestId: number;
  rate: number;
  automateFund: boolean;
  /** The request's total amount: what an offer on it commits. */
  amountCents: Cents;
  riskLevel: number;
  /** The request as the list showed it when the agent asked. */
  request: unknown;
  /** Why it waits and what the guard and the strategies said then (src/proposals/). */
  explanation: unknown;
}

export interface ProposalInput extends ProposalFields {
  createdAtMs: number;
  expiresAtMs: number;
}

export interface StoredProposal extends ProposalFields {
  id: number;
  status: ProposalStatus;
  createdAt: string;
  expiresAt: string;
  /** Who approved or rejected it (`allowance`, `dashboard:operator`, `cli:NAME`); null while pending. */
  decidedBy: string | null;
  decidedAt: string | null;
  /** The person's reason for a rejection, or why it expired after an approval. */
  note: string | null;
  outcome: ProposalOutcome | null;
  /** The outcome's figures (the service's offer id, the guard's refusal, ...). */
  outcomeDetail: unknown;
  finishedAt: string | null;
}

interface ProposalRow {
  id: number;
  token_name: string;
  loan_request_id: number;
  rate: number;
  automate_fund: 0 | 1;
  amount_cents: number;
  risk_level: number;
  request_json: string;
  explanation_json: string;
  status: ProposalStatus;
  created_at: string;
  expires_at: string;
  decided_by: string | null;
  decided_at: string | null;
  note: string | null;
  outcome: ProposalOutcome | null;
  outcome_json: string | null;
  finished_at: string | null;
}

interface AllowanceReservation extends ProposalInput {
  /** The UTC day the allowance counts in, [start, end). */
  dayStartMs: number;
  dayEndMs: number;
  maxPerDayCents: Cents;
}

type ReserveResult = { reserved: true; proposal: StoredProposal } | { reserved: false; usedCents: Cents };

type DecideResult = { changed: true; proposal: StoredProposal } | { changed: false; proposal: StoredProposal | undefined };

interface ProposalListQuery {
  statuses?: readonly ProposalStatus[] | undefined;
  tokenName?: string | undefined;
  /** Only proposals with a smaller id (the next, older page). */
  beforeId?: number | undefined;
  limit: number;
}

export interface ProposalsRepository {
  /** Records a proposal waiting for a person. */
  propose(input: ProposalInput): StoredProposal;
  /** Records an offer within the token's allowance as `placing`, if the day's use leaves room for it. */
  reserveAllowance(input: AllowanceReservation): ReserveResult;
  /** The allowance a token used in [fromMs, toMs): offers placed, unknown or on their way. */
  allowanceUsedCents(tokenName: string, fromMs: number, toMs: number): Cents;
  get(id: number): StoredProposal | undefined;
  /** A pending proposal of this token for exactly this offer, not expired at `nowMs`. */
  findPending(tokenName: string, loanRequestId: number, rate: number, automateFund: boolean, nowMs: number): StoredProposal | undefined;
  /** How many of the token's proposals wait, not expired at `nowMs`. */
  pendingCount(tokenName: string, nowMs: number): number;
  /** Latest first. */
  list(query: ProposalListQuery): StoredProposal[];
  /** Proposals with an id above `afterId`, oldest first (the notification watcher's cursor). */
  after(afterId: number, limit: number): StoredProposal[];
  /** pending → approved or rejected, unless it is no longer pending or expired at `atMs` (then marked expired). */
  decide(id: number, to: 'approved' | 'rejected', by: string, atMs: number, note?: string): DecideResult;
  /** approved → placing: only one caller wins a proposal. */
  claim(id: number): StoredProposal | undefined;
  /** placing → done, with what became of the offer. */
  finish(id: number, outcome: ProposalOutcome, detail: unknown, atMs: number): void;
  /** Pending or approved-but-not-placed proposals whose time is up → expired; returns how many. */
  expireDue(nowMs: number): number;
  /** The waiting proposals (id and loan request), oldest first, at most `limit`. */
  pendingRequests(limit: number): Array<{ id: number; loanRequestId: number }>;
  /** pending → expired now, with why (its request closed); false when it no longer waited. */
  expireNow(id: number, note: string, atMs: number): boolean;
  /** Approved proposals no one has placed yet (approved by `lendbot approve`, or left by a restart). */
  approvedIds(limit: number): number[];
  /** placing → approved, for rows a stopped process left mid-way (the offer path never sends twice). */
  resumeInterrupted(): number;
  /** Notes the offer row this proposal's placing wrote (before its POST). */
  noteOffer(id: number, offerId: number): void;
  /** The offer row this proposal's placing wrote, if it got that far. */
  offerIdOf(id: number): number | undefined;
}

function fromRow(row: ProposalRow): StoredProposal {
  return {
    id: row.id,
    tokenName: row.token_name,
    loanRequestId: row.loan_request_id,
    rate: row.rate,
    automateFund: row.automate_fund === 1,
    amountCents: row.amount_cents,
    riskLevel: row.risk_level,
    request: parseJsonColumn(row.request_json),
    explanation: parseJsonColumn(row.explanation_json),
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at,
    note: row.note,
    outcome: row.outcome,
    outcomeDetail: row.outcome_json === null ? null : parseJsonColumn(row.outcome_json),
    finishedAt: row.finished_at,
  };
}

/** Rows the allowance counts: what went (or may have gone, or is going) out. */
const USES_ALLOWANCE = `decided_by = '${ALLOWANCE_DECIDER}' AND (status IN ('approved', 'placing') OR outcome IN ('placed', 'unknown'))`;

export function createProposalsRepository(db: Database): ProposalsRepository {
  const insert = db.prepare<
    [string, number, number, 0 | 1, number, number, string, string, ProposalStatus, string, string, string | null, string | null]
  >(
    `INSERT INTO offer_proposals (token_name, loan_request_id, rate, automate_fund, amount_cents, risk_level, request_json, explanation_json, status, created_at, expires_at, decided_by, decided_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare<[number], ProposalRow>('SELECT * FROM offer_proposals WHERE id = ?');
  const used = db.prepare<[string, string, string], { cents: number | null }>(
    `SELECT SUM(amount_cents) AS cents FROM offer_proposals WHERE token_name = ? AND created_at >= ? AND created_at < ? AND ${USES_ALLOWANCE}`,
  );
  const samePending = db.prepare<[string, number, number, 0 | 1, string], ProposalRow>(
    `SELECT * FROM offer_proposals WHERE token_name = ? AND loan_request_id = ? AND rate = ? AND automate_fund = ? AND status = 'pending' AND expires_at > ?
     ORDER BY id DESC LIMIT 1`,
  );
  const countPending = db.prepare<[string, string], { n: number }>(
    "SELECT COUNT(*) AS n FROM offer_proposals WHERE token_name = ? AND status = 'pending' AND expires_at > ?",
  );
  const afterId = db.prepare<[number, number], ProposalRow>('SELECT * FROM offer_proposals WHERE id > ? ORDER BY id LIMIT ?');
  const setDecision = db.prepare<[ProposalStatus, string, string, string | null, number]>(
    "UPDATE offer_proposals SET status = ?, decided_by = ?, decided_at = ?, note = ? WHERE id = ? AND status = 'pending'",
  );
  const setClaimed = db.prepare<[number]>("UPDATE offer_proposals SET status = 'placing' WHERE id = ? AND status = 'approved'");
  const setFinished = db.prepare<[ProposalOutcome, string, string, number]>(
    "UPDATE offer_proposals SET status = 'done', outcome = ?, outcome_json = ?, finished_at = ? WHERE id = ? AND status = 'placing'",
  );
  const expirePending = db.prepare<[string]>("UPDATE offer_proposals SET status = 'expired' WHERE status = 'pending' AND expires_at <= ?");
  const expireApproved = db.prepare<[string, string]>(
    "UPDATE offer_proposals SET status = 'expired', note = ? WHERE status = 'approved' AND expires_at <= ? AND decided_by <> 'allowance'",
  );
  // Read first: the runner asks every second, and an UPDATE would take the write lock each time.
  const anyDue = db.prepare<[string], { id: number }>(
    "SELECT id FROM offer_proposals WHERE status IN ('pending', 'approved') AND expires_at <= ? LIMIT 1",
  );
  const pendingRows = db.prepare<[number], { id: number; loan_request_id: number }>(
    "SELECT id, loan_request_id FROM offer_proposals WHERE status = 'pending' ORDER BY id LIMIT ?",
  );
  const expireOne = db.prepare<[string, string, number]>(
    "UPDATE offer_proposals SET status = 'expired', note = ?, expires_at = ? WHERE id = ? AND status = 'pending'",
  );
  const approved = db.prepare<[number], { id: number }>("SELECT id FROM offer_proposals WHERE status = 'approved' ORDER BY id LIMIT ?");
  const interrupted = db.prepare("UPDATE offer_proposals SET status = 'approved' WHERE status = 'placing'");
  const setOffer = db.prepare<[number, number]>('UPDATE offer_proposals SET offer_id = ? WHERE id = ?');
  const offerOf = db.prepare<[number], { offer_id: number | null }>('SELECT offer_id FROM offer_proposals WHERE id = ?');

  const get = (id: number): StoredProposal | undefined => {
    const row = byId.get(id);
    return row === undefined ? undefined : fromRow(row);
  };
  const write = (input: ProposalInput, status: ProposalStatus, decidedBy: string | null): StoredProposal => {
    const created = isoFromMs(input.createdAtMs);
    const result = insert.run(
      input.tokenName,
      input.loanRequestId,
      input.rate,
      flag(input.automateFund),
      input.amountCents,
      input.riskLevel,
      JSON.stringify(input.request),
      JSON.stringify(input.explanation),
      status,
      created,
      isoFromMs(input.expiresAtMs),
      decidedBy,
      decidedBy === null ? null : created,
    );
    const stored = get(Number(result.lastInsertRowid));
    if (stored === undefined) throw new Error('a proposal just written cannot be read back');
    return stored;
  };
  const usedCents = (tokenName: string, fromMs: number, toMs: number): Cents =>
    used.get(tokenName, isoFromMs(fromMs), isoFromMs(toMs))?.cents ?? 0;

  // IMMEDIATE: the write lock is taken before the sum is read, so another process cannot slip an
  // allowance offer in between the sum and the insert.
  const reserve = db.transaction((input: AllowanceReservation): ReserveResult => {
    const already = usedCents(input.tokenName, input.dayStartMs, input.dayEndMs);
    if (already + input.amountCents > input.maxPerDayCents) return { reserved: false, usedCents: already };
    return { reserved: true, proposal: write(input, 'placing', ALLOWANCE_DECIDER) };
  });
  const decide = db.transaction(
    (id: number, to: 'approved' | 'rejected', by: string, atMs: number, note: string | undefined): DecideResult => {
      const current = get(id);
      if (current === undefined || current.status !== 'pending') return { changed: false, proposal: current };
      const at = isoFromMs(atMs);
      if (current.expiresAt <= at) {
        expirePending.run(at);
        return { changed: false, proposal: get(id) };
      }
      setDecision.run(to, by, at, note ?? null, id);
      const changed = get(id);
      if (changed === undefined) throw new Error(`proposal ${id} vanished while it was decided`);
      return { changed: true, proposal: changed };
    },
  );

  return {
    propose: (input) => write(input, 'pending', null),
    reserveAllowance: (input) => reserve.immediate(input),
    allowanceUsedCents: usedCents,
    get,
    findPending(tokenName, loanRequestId, rate, automateFund, nowMs) {
      const row = samePending.get(tokenName, loanRequestId, rate, flag(automateFund), isoFromMs(nowMs));
      return row === undefined ? undefined : fromRow(row);
    },
    pendingCount: (tokenName, nowMs) => countPending.get(tokenName, isoFromMs(nowMs))?.n ?? 0,
    list(query) {
      const where: string[] = [];
      const values: Array<string | number> = [];
      if (query.statuses !== undefined && query.statuses.length > 0) {
        where.push(`status IN (${query.statuses.map(() => '?').join(', ')})`);
        values.push(...query.statuses);
      }
      if (query.tokenName !== undefined) {
        where.push('token_name = ?');
        values.push(query.tokenName);
      }
      if (query.beforeId !== undefined) {
        where.push('id < ?');
        values.push(query.beforeId);
      }
      const sql = `SELECT * FROM offer_proposals ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
      return db
        .prepare<Array<string | number>, ProposalRow>(sql)
        .all(...values, query.limit)
        .map(fromRow);
    },
    after: (id, limit) => afterId.all(id, limit).map(fromRow),
    decide: (id, to, by, atMs, note) => decide.immediate(id, to, by, atMs, note),
    claim(id) {
      return setClaimed.run(id).changes === 1 ? get(id) : undefined;
    },
    finish(id, outcome, detail, atMs) {
      setFinished.run(outcome, JSON.stringify(detail ?? null), isoFromMs(atMs), id);
    },
    expireDue(nowMs) {
      const at = isoFromMs(nowMs);
      if (anyDue.get(at) === undefined) return 0;
      const note = 'approved, but no running daemon placed it before it expired';
      return expirePending.run(at).changes + expireApproved.run(note, at).changes;
    },
    pendingRequests: (limit) => pendingRows.all(limit).map((row) => ({ id: row.id, loanRequestId: row.loan_request_id })),
    expireNow: (id, note, atMs) => expireOne.run(note, isoFromMs(atMs), id).changes === 1,
    approvedIds: (limit) => approved.all(limit).map((row) => row.id),
    resumeInterrupted: () => interrupted.run().changes,
    noteOffer(id, offerId) {
      setOffer.run(offerId, id);
    },
    offerIdOf: (id) => offerOf.get(id)?.offer_id ?? undefined,
  };
}
