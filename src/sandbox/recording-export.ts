/**
 * `lendbot sandbox export`: runs the market (of the chosen shape) headless (no HTTP, no timer)
 * until the requested number of loan requests has arrived and the market has settled, then
 * writes one recording line per request (docs/recording-format.md) with its banking data, both
 * providers' results as they would have been bought when the request was seen, the borrower's
 * loan history as marketplace 4.9 serves it, and the
 * ground-truth outcome (for a request nobody funded, also how it would have repaid: `if_funded`).
 *
 * The export streams: a request's line is written once its fate is final and every earlier
 * request's line is written, and the market forgets it then (market.ts, `onFinal`), so memory
 * follows what is live (open requests, loans within their term, final requests waiting for an
 * earlier one: final-request-order.ts), not how many requests the file holds. The file is the
 * same, to the byte, as writing every line from the whole market at the end.
 */
import { openRecordingWriter } from '../recording/index.js';
import { RECORDING_VERSION, type Outcome, type RecordingLine } from '../recording/index.js';
import { bankingDataSchema, borrowerLoanHistoryItemSchema, loanRequestSchema, providerResultSchema } from '../domain/index.js';
import { outcomeOf } from './ground-truth.js';
import { DAY_MS } from '../clock/time-constants.js';
import { generateLoanRequest } from './borrower-generator.js';
import { FinalRequestOrder } from './final-request-order.js';
import { Market } from './market.js';
import type { LoanRequestRecord } from './market-types.js';
import { providerAResult, providerBResult } from './provider-scores.js';
import { marketShape, shiftedShape, worldShiftLabel, type ScoreLinkName, type WorldShift } from './shapes/index.js';
import type { HistoryRateMode, MarketShape } from './shapes/market-shape.js';
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
  /** How borrowers' past loans were priced (history-rates.ts; absent: `market`). */
  historyRates?: HistoryRateMode | undefined;
  startTime?: string;
  providerNames?: ProviderNames;
  /** Include the raw bank transactions (`data_aggregation`); large, so off by default. */
  includeTransactions?: boolean;
  /** Called after each simulated day (each month once arrivals end) with the progress. */
  onProgress?: (progress: ExportProgress) => void;
}

export interface ExportProgress {
  /** Requests arrived so far, of `total`. */
  arrived: number;
  /** Lines written so far, of `total`. */
  written: number;
  /** The requests to write. */
  total: number;
  /** The market's simulated now. */
  simulatedMs: number;
  /** Requests the market holds now: open ones and those whose loan still runs. */
  held: number;
  /** Final requests whose line waits for an earlier request's. */
  waiting: number;
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

type HeadlessOptions = Omit<ExportOptions, 'includeTransactions' | 'providerNames' | 'onProgress'>;

function worldShiftOf(options: HeadlessOptions): WorldShift {
  return { defaultScale: options.defaultScale, scoreLink: options.scoreLink, historyRates: options.historyRates };
}

function headlessMarket(options: HeadlessOptions, onFinal?: (request: LoanRequestRecord) => void): Market {
  if (!Number.isSafeInteger(options.requests) || options.requests < 1) throw new RangeError('requests must be a whole number from 1');
  return new Market({
    seed: options.seed,
    shape: shiftedShape(marketShape(options.shape), worldShiftOf(options)),
    startMs: Date.parse(options.startTime ?? DEFAULT_START_TIME),
    arrivalsPerHour: options.arrivalsPerHour ?? 30,
    maxArrivals: options.requests,
    ...(onFinal ? { onFinal } : {}),
  });
}

/**
 * Advances a headless market until `requests` requests have arrived (a simulated day at a time)
 * and their loans have run their course, yielding after each step (the export writes what became final).
 */
function* headlessSteps(market: Market, requests: number): Generator<void> {
  for (let t = market.now(); market.arrivedCount < requests; t += DAY_MS) {
    market.advanceTo(t);
    yield;
  }
  const lastArrival = market.now();
  for (let next = market.nextEventTime(); next !== undefined && next < lastArrival + SETTLE_LIMIT_MS; next = market.nextEventTime()) {
    market.advanceTo(Math.min(next + 30 * DAY_MS, lastArrival + SETTLE_LIMIT_MS));
    yield;
  }
}

/**
 * Runs a market with no investor until `requests` requests have arrived and their loans have run
 * their course, keeping every request: the market an export writes (tests and benchmarks read it
 * directly; the export itself forgets requests as they become final).
 */
export function runHeadlessMarket(options: HeadlessOptions): Market {
  const market = headlessMarket(options);
  for (const _step of headlessSteps(market, options.requests));
  return market;
}

/** Runs the market and writes the recording to `file`, each line once its request's fate is final. */
export async function exportSandboxRecording(file: string, options: ExportOptions): Promise<ExportSummary> {
  const startMs = Date.parse(options.startTime ?? DEFAULT_START_TIME);
  const order = new FinalRequestOrder();
  let walkedAway = 0;
  const onFinal = (request: LoanRequestRecord): void => {
    if (request.refusedRate !== null) walkedAway += 1;
    order.add({ id: request.id, createdMs: request.createdMs, outcome: outcomeOf(market, request.id) });
  };
  const market = headlessMarket(options, onFinal);
  market.onNewLoanRequest((request) => order.arrived(request.id));
  const byStatus: Record<string, number> = {};
  const writer = await openRecordingWriter(file);
  let lines = 0;
  const writeReady = async (): Promise<void> => {
    for (const final of order.takeReady()) {
      const request = generateLoanRequest(market.seed, final.id, final.createdMs, {}, market.shape);
      const line = recordingLine(market.seed, request, final.outcome, options, market.shape);
      byStatus[line.outcome?.status ?? 'none'] = (byStatus[line.outcome?.status ?? 'none'] ?? 0) + 1;
      await writer.write(line);
      lines += 1;
    }
  };
  for (const _step of headlessSteps(market, options.requests)) {
    await writeReady();
    options.onProgress?.({
      arrived: market.arrivedCount,
      written: lines,
      total: options.requests,
      simulatedMs: market.now(),
      held: market.requests.size,
      waiting: order.size,
    });
  }
  // Loans still running when the market stops (current, or in collection) are final as they are.
  for (const request of market.requests.values()) onFinal(request);
  await writeReady();
  await writer.close();
  if (order.size > 0) throw new Error(`sandbox export: ${order.size} final requests were left unwritten`);
  const world = worldShiftLabel(worldShiftOf(options));
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

/**
 * One request as a recording line, seen when it was created, with its final outcome. The export
 * passes the request generated again from the seed, as the market generated it on arrival
 * (nothing the line shows of it changes after), so a final request waiting for its turn costs
 * only its outcome.
 */
export function recordingLine(
  seed: number,
  request: LoanRequestRecord,
  outcome: Outcome,
  options: ExportOptions,
  shape: MarketShape,
): RecordingLine {
  const names = options.providerNames ?? DEFAULT_PROVIDER_NAMES;
  const bank = options.includeTransactions ? bankingDataView(request) : bankingSummaryView(request);
  // Parsing with the client's own schemas types the line and proves it is what the API would send.
  const line: RecordingLine = {
    v: RECORDING_VERSION,
    seen_at: isoTime(request.createdMs),
    loan_request: loanRequestSchema.parse(loanRequestView(request)),
    // The same items the sandbox's 4.9 route serves (one per completed loan; [] for none).
    borrower_history: borrowerHistoryView(seed, request, shape).map((item) => borrowerLoanHistoryItemSchema.parse(item)),
    outcome,
  };
  if (bank) {
    line.data_aggs = bankingDataSchema.parse(bank);
    line.scores = {
      [names.a]: providerResultSchema.parse(providerAResult(seed, request, request.createdMs)),
      [names.b]: providerResultSchema.parse(providerBResult(seed, request, request.createdMs)),
    };
  }
  return line;
}
