/**
 * The recording format (docs/recording-format.md): JSON Lines, one loan request per line, as the
 * daemon saw it or the sandbox generated it, with what was bought about it and, when known, what
 * became of it. Version 1. Unknown fields are kept.
 */
import { z } from 'zod';
import {
  bankingDataSchema,
  borrowerLoanHistoryItemSchema,
  loanPaymentSchema,
  loanRequestSchema,
  providerResultSchema,
} from '../domain/index.js';

export const RECORDING_VERSION = 1;

const OUTCOME_STATUSES = ['completed', 'current', 'collection', 'default', 'unfunded'] as const;

const outcomeSchema = z.looseObject({
  status: z.enum(OUTCOME_STATUSES),
  /** The rate the loan was funded at, by anyone. */
  funded_rate: z.number().min(0).optional(),
  /** The lowest rate offered by other lenders; null when nobody else offered. */
  best_competing_rate: z.number().min(0).nullable().optional(),
  /**
   * The highest rate (API unit) this borrower would have accepted from any lender; 0 when the
   * borrower would accept no offer at all (walked away from every rate). Written by a simulator
   * that knows each borrower's rule; when present, a backtest judges acceptance from it and the
   * recorded competing rate with no take-up curve (docs/backtesting.md, "Recorded acceptance").
   */
  reservation_rate: z.number().min(0).optional(),
  /** Share of the total due that was repaid, 0 to 1. */
  repaid_fraction: z.number().min(0).max(1).optional(),
  /**
   * For a `collection` or `default`: the instalment (1-based) first missed. A backtest writes the
   * loan off there and counts what `repaid_fraction` says beyond the instalments before it as a
   * recovery; without it, the repaid share is read as whole instalments paid before the loss.
   */
  missed_month: z.number().int().min(1).optional(),
  resolved_at: z.iso.datetime({ offset: true }).optional(),
  /** The investor's loan's payments (marketplace 2.6) as last synced, oldest due first; only on the daemon's own loans. */
  payments: z.array(loanPaymentSchema).optional(),
  /**
   * For a request nobody funded: what the borrower would have repaid had it been funded (a
   * simulator knows it; real recordings do not). Lets a backtest judge an offer nobody else made.
   */
  if_funded: z
    .looseObject({
      status: z.enum(['completed', 'collection', 'default']),
      repaid_fraction: z.number().min(0).max(1),
      missed_month: z.number().int().min(1).optional(),
    })
    .optional(),
});
export type Outcome = z.infer<typeof outcomeSchema>;

const OWN_OFFER_STATUSES = ['accepted', 'rejected', 'lost', 'expired', 'pending'] as const;

/**
 * The investor's own offer on the request, as the daemon placed it (never a dry run's). Lets
 * `lendbot train` fit the take-up curve from the daemon's own history, which has no competing
 * rates.
 */
const ownOfferSchema = z.looseObject({
  rate: z.number().min(0),
  /**
   * accepted (funded or not yet), rejected, lost (the request left the list without our loan
   * while our offer was out: taken by another lender, canceled or closed), expired (no answer
   * within the offer's life), pending.
   */
  status: z.enum(OWN_OFFER_STATUSES),
  /** When the offer was placed. */
  at: z.iso.datetime({ offset: true }).optional(),
});
export type OwnOffer = z.infer<typeof ownOfferSchema>;

/**
 * A dry run's would-be offer on the request (docs/daemon.md, "Paper book"): never sent, so never
 * answered. Kept apart from `offer`, whose status the market gave, so training never reads a
 * modelled acceptance as an observed one; a backtest can compare its own verdict with it.
 */
const paperOfferSchema = z.looseObject({
  paper: z.literal(true),
  rate: z.number().min(0),
  /** When the dry run decided it. */
  at: z.iso.datetime({ offset: true }),
  strategy: z.string(),
  /** MODELLED P(accept) at the rate (the strategy's market response); null when the strategy models nothing. */
  modelled_accept_probability: z.number().min(0).max(1).nullable(),
  /** MODELLED probability of full repayment (the strategy's score); null when it has none. */
  modelled_repay_probability: z.number().min(0).max(1).nullable(),
  /** MODELLED P(accept) × expected profit once accepted, USD; null when not modelled. */
  modelled_expected_profit: z.number().nullable(),
  /** OBSERVED: the request still listed at the last scan, gone from the list, or not scanned since. */
  request: z.enum(['listed', 'gone', 'not_scanned']),
});
export type PaperOffer = z.infer<typeof paperOfferSchema>;

export const recordingLineSchema = z.looseObject({
  v: z.literal(RECORDING_VERSION),
  seen_at: z.iso.datetime({ offset: true }),
  loan_request: loanRequestSchema,
  data_aggs: bankingDataSchema.optional(),
  scores: z.record(z.string(), providerResultSchema).optional(),
  /**
   * The borrower's completed loans (marketplace 2.8, every page of 4.9) as fetched when the request was
   * decided; [] when there were none. Absent: not fetched, or not found.
   */
  borrower_history: z.array(borrowerLoanHistoryItemSchema).optional(),
  outcome: outcomeSchema.optional(),
  offer: ownOfferSchema.optional(),
  paper_offer: paperOfferSchema.optional(),
});
export type RecordingLine = z.infer<typeof recordingLineSchema>;

/** What was bought about a request, as a line records it: what a replay's data source reads (src/backtest/recording-data.ts). */
export type RecordedData = Pick<RecordingLine, 'data_aggs' | 'scores' | 'borrower_history'>;

/** A line without its recorded data: what a replay reads of it besides (the request, its outcome, our offers). */
export type LineWithoutData = Pick<RecordingLine, 'v' | 'seen_at' | 'loan_request' | 'outcome' | 'offer' | 'paper_offer'>;
