/**
 * `lendbot sandbox export`: runs the market (of the chosen shape) headless (no HTTP, no timer)
 * until the requested number of loan requests has arrived and the market has settled, then
 * writes one recording line per request (docs/recording-format.md) with its banking data, both
 * providers' results as they would have been bought when the request was seen, the borrower's
 * loan history as marketplace 4.9 serves it, and the
 * ground-truth outcome (for a request nobody funded, also how it would have repaid: `if_funded`).
 */
import { openRecordingWriter } from '../recording/index.js';
import { RECORDING_VERSION, type RecordingLine } from '../recording/index.js';
import { bankingDataSchema, borrowerLoanHistoryItemSchema, loanRequestSchema, providerResultSchema } from '../domain/index.js';
import { outcomeOf } from './ground-truth.js';
import { DAY_MS } from '../clock/time-constants.js';
import { Market } from './market.js';
import type { LoanRequestRecord } from './market-types.js';
import { providerAResult, providerBResult } from './provider-scores.js';
import { marketShape, shiftedShape, worldShiftLabel, type ScoreLinkName } from './shapes/index.js';
import { bankingDataView, bankingSummaryView, borrowerHistoryView, isoTime, loanRequestView } from './resource-views.js';
import type { ProviderNames } from './runtime.js';
import { DEFAULT_PROVIDER_NAMES, DEFAULT_START_TIME } from './start-sandbox.js';

export interface ExportOptions {
  seed: number;
  /** How many loan requests to write. */
  requests: number;
  arrivalsPerHour?: number;
  /** The market shape by name (default `classic`). */
  shape?: string;
  /** Multiplies every borrower's odds of default (shapes/world-shift.ts; absent or 1: the shape's own level). */
  defaultScale?: number | undefined;
  /** Replaces the shape's link between the credit file and default (shapes/world-shift.ts; absent: the shape's own). */
  scoreLink?: ScoreLinkName | undefined;
  startTime?: string;
  providerNames?: ProviderNames;
  /** Include the raw bank transactions (`data_aggregation`); large, so off by default. */
  includeTransactions?: boolean;
  /** Called now and then with the simulated progress. */
  onProgress?: (phase: 'arrivals' | 'settling' | 'writing', done: number, total: number) => void;
}

export interface ExportSummary {
  lines: number;
  /** The market shape the recording was generated with. */
  shape: string;
  /** The shift applied to the shape ("default odds x0.4, score link bank-led"), "" for none. */
  world: string;
  /** Requests whose borrower walked away from an offer as too expensive. */
  walkedAway: number;
  byStatus: Record<string, number>;
  simulatedFrom: string;
  simulatedUntil: string;
}

// Long enough for every loan to run its course: the 30-day window, 24 monthly payments,
// collection and default, with room to spare. Loans still running after it are `current`.
const SETTLE_LIMIT_MS = 800 * DAY_MS;

/**
 * Runs a market with no investor until `requests` requests have arrived and their loans have run
 * their course: the market an export writes (tests and benchmarks read it directly).
 */
export function runHeadlessMarket(options: Omit<ExportOptions, 'includeTransactions' | 'providerNames'>): Market {
  if (!Number.isSafeInteger(options.requests) || options.requests < 1) throw new RangeError('requests must be a whole number from 1');
  const startMs = Date.parse(options.startTime ?? DEFAULT_START_TIME);
  const market = new Market({
    seed: options.seed,
    shape: shiftedShape(marketShape(options.shape), { defaultScale: options.defaultScale, scoreLink: options.scoreLink }),
    startMs,
    arrivalsPerHour: options.arrivalsPerHour ?? 30,
    maxArrivals: options.requests,
  });
  const progress = options.onProgress ?? ((): void => undefined);
  for (let t = startMs; market.arrivedCount < options.requests; t += DAY_MS) {
    market.advanceTo(t);
    progress('arrivals', market.arrivedCount, options.requests);
  }
  const lastArrival = market.now();
  for (let next = market.nextEventTime(); next !== undefined && next < lastArrival + SETTLE_LIMIT_MS; next = market.nextEventTime()) {
    market.advanceTo(Math.min(next + 30 * DAY_MS, lastArrival + SETTLE_LIMIT_MS));
    progress('settling', market.now() - lastArrival, SETTLE_LIMIT_MS);
  }
  return market;
}

/** Runs the market and writes the recording to `file`. */
export async function exportSandboxRecording(file: string, options: ExportOptions): Promise<ExportSummary> {
  const startMs = Date.parse(options.startTime ?? DEFAULT_START_TIME);
  const market = runHeadlessMarket(options);
  const progress = options.onProgress ?? ((): void => undefined);
  const byStatus: Record<string, number> = {};
  const writer = await openRecordingWriter(file);
  let lines = 0;
  let walkedAway = 0;
  for (const request of market.requests.values()) {
    if (request.refusedRate !== null) walkedAway += 1;
    const line = recordingLine(market, request, options);
    byStatus[line.outcome?.status ?? 'none'] = (byStatus[line.outcome?.status ?? 'none'] ?? 0) + 1;
    await writer.write(line);
    lines += 1;
    if (lines % 1000 === 0) progress('writing', lines, market.requests.size);
  }
  await writer.close();
  const world = worldShiftLabel({ defaultScale: options.defaultScale, scoreLink: options.scoreLink });
  return {
    lines,
    shape: market.shape.name,
    world,
    walkedAway,
    byStatus,
    simulatedFrom: isoTime(startMs),
    simulatedUntil: isoTime(market.now()),
  };
}

/** One request as a recording line, seen when it was created. */
function recordingLine(market: Market, request: LoanRequestRecord, options: ExportOptions): RecordingLine {
  const names = options.providerNames ?? DEFAULT_PROVIDER_NAMES;
  const bank = options.includeTransactions ? bankingDataView(request) : bankingSummaryView(request);
  // Parsing with the client's own schemas types the line and proves it is what the API would send.
  const line: RecordingLine = {
    v: RECORDING_VERSION,
    seen_at: isoTime(request.createdMs),
    loan_request: loanRequestSchema.parse(loanRequestView(request)),
    // The same items the sandbox's 4.9 route serves (one per completed loan; [] for none).
    borrower_history: borrowerHistoryView(market.seed, request).map((item) => borrowerLoanHistoryItemSchema.parse(item)),
    outcome: outcomeOf(market, request.id),
  };
  if (bank) {
    line.data_aggs = bankingDataSchema.parse(bank);
    line.scores = {
      [names.a]: providerResultSchema.parse(providerAResult(market.seed, request, request.createdMs)),
      [names.b]: providerResultSchema.parse(providerBResult(market.seed, request, request.createdMs)),
    };
  }
  return line;
}
