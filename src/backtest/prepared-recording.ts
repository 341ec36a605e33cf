/**
 * A recording made ready to replay: one entry per loan request, in `seen_at` order, with the
 * figures every trial needs computed once (a tuning run replays the same entries hundreds of
 * times). A request recorded twice is replayed once, when it was first seen, with the content of
 * its last line (which holds what was learned since, like its outcome).
 */
import { parseCents } from '../domain/index.js';
import type { LineWithoutData, RecordedData, RecordingLine } from '../recording/index.js';
import { scoreBandOf } from './segment-stats.js';
import { worldFactsOf, type WorldFacts } from './world-facts.js';

/** A request as a replay reads it: the line, and what was bought about it, read from it only when asked for. */
export interface ReplayRead {
  line: LineWithoutData;
  data: RecordedData;
}

export interface ReplayEntry {
  line: RecordingLine;
  /**
   * The line as a replay reads it, where building it whole costs (a compact recording builds the
   * recorded data only when the data source reads it); absent: `line` serves both (readForReplay).
   */
  readForReplay?: (() => ReplayRead) | undefined;
  /** What the quality-tied borrower world groups the request by, kept while reading; absent: read from the line (worldFacts). */
  worldFacts?: (() => WorldFacts) | undefined;
  /** When it was first seen (the earliest line's seen_at). */
  seenAt: string;
  seenMs: number;
  totalCents: number;
  scoreBand: string;
}

export interface PreparedRecording {
  entries: readonly ReplayEntry[];
  /** Lines that repeated a loan request id already in the recording. */
  duplicates: number;
  /**
   * What the entries' outcomes tell as a whole, counted while reading (a compact recording, whose
   * lines cost a decoding at each pass over them); absent: counted from the lines when asked.
   */
  outcomeCounts?: OutcomeCounts | undefined;
}

/** Counts over a recording's entries: see recordedAcceptanceShare (worlds-band.ts) and populationDefault (offer-stats.ts). */
export interface OutcomeCounts {
  /** The entries counted: a recording copied with other entries (`{ ...recording, entries }`) is counted again from its lines. */
  of: readonly ReplayEntry[];
  /** Entries with `outcome.reservation_rate` (hasRecordedAcceptance). */
  recordedAcceptance: number;
  /** Entries whose fate once funded is known (realisedDefault not undefined), and how many of them defaulted. */
  resolved: number;
  defaults: number;
}

export interface PeriodFilter {
  /** Inclusive, ISO-8601. */
  from?: string | undefined;
  /** Exclusive, ISO-8601. */
  to?: string | undefined;
}

/** A period bound as epoch ms; `fallback` when absent (the compact reader shares it). */
export function instant(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw new RangeError(`not an ISO-8601 time: ${text}`);
  return ms;
}

export function isPrepared(value: readonly RecordingLine[] | PreparedRecording): value is PreparedRecording {
  return !Array.isArray(value);
}

/** Orders, de-duplicates and trims `lines` to the period. */
export function prepareRecording(lines: Iterable<RecordingLine>, period: PeriodFilter = {}): PreparedRecording {
  const fromMs = instant(period.from, Number.NEGATIVE_INFINITY);
  const toMs = instant(period.to, Number.POSITIVE_INFINITY);
  const byId = new Map<number, ReplayEntry>();
  // Amounts repeat ("250.00" on thousands of requests): each text is parsed once.
  const cents = new Map<string, number>();
  const centsOf = (text: string): number => {
    let value = cents.get(text);
    if (value === undefined) cents.set(text, (value = parseCents(text)));
    return value;
  };
  let duplicates = 0;
  for (const line of lines) {
    const seenMs = Date.parse(line.seen_at);
    if (seenMs < fromMs || seenMs >= toMs) continue;
    const known = byId.get(line.loan_request.id);
    const first = known !== undefined && known.seenMs <= seenMs ? known : undefined;
    const entry: ReplayEntry = {
      line,
      seenAt: first ? first.seenAt : line.seen_at,
      seenMs: first ? first.seenMs : seenMs,
      totalCents: centsOf(line.loan_request.total_amount),
      scoreBand: scoreBandOf(line.scores),
    };
    if (known) duplicates += 1;
    byId.set(line.loan_request.id, entry);
  }
  // By time; equal times keep the file's order (Array.prototype.sort is stable), which is the
  // order the daemon decided them in when the file is its export.
  const entries = [...byId.values()].sort((a, b) => a.seenMs - b.seenMs);
  return { entries, duplicates };
}

/** The recording's outcome counts when they count its entries (see OutcomeCounts.of). */
export function outcomeCountsOf(recording: PreparedRecording): OutcomeCounts | undefined {
  return recording.outcomeCounts?.of === recording.entries ? recording.outcomeCounts : undefined;
}

/**
 * `entry` with another line, as a plain entry. A loaded recording's entries are views on its
 * compact form whose fields are getters: spreading one (`{ ...entry }`) copies none of them.
 */
export function withLine(entry: ReplayEntry, line: RecordingLine): ReplayEntry {
  return { line, seenAt: entry.seenAt, seenMs: entry.seenMs, totalCents: entry.totalCents, scoreBand: entry.scoreBand };
}

/** The entry's world facts (see ReplayEntry.worldFacts). */
export function worldFacts(entry: ReplayEntry): WorldFacts {
  return entry.worldFacts?.() ?? worldFactsOf(readForReplay(entry).line);
}

/** The entry's line as a replay reads it (see ReplayEntry.readForReplay). */
export function readForReplay(entry: ReplayEntry): ReplayRead {
  if (entry.readForReplay !== undefined) return entry.readForReplay();
  const line = entry.line;
  return { line, data: line };
}

/**
 * Each entry's line in replay order, one at a time: a compact recording builds each line when it
 * is read, so a pass over this holds one line at a time where `entries.map((e) => e.line)` would
 * hold them all.
 */
export function* recordingLines(recording: PreparedRecording): Generator<RecordingLine, void, undefined> {
  for (const entry of recording.entries) yield entry.line;
}

/** The entries from index `start` (inclusive) to `end` (exclusive), as a recording of its own. */
export function sliceRecording(recording: PreparedRecording, start: number, end: number): PreparedRecording {
  return { entries: recording.entries.slice(start, end), duplicates: 0 };
}
