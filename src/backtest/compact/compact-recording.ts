/**
 * FAST PATH of src/backtest/prepared-recording.ts:prepareRecording; equivalence: test/backtest/compact-recording.test.ts; change both or neither.
 *
 * A recording read once, streaming, into a compact form, so a backtest's memory follows the
 * requests, not their JSON (issue 39): each line is parsed and checked as the readable reader
 * does, written in the compact form of compact-json.ts and dropped; what every replay reads per
 * request (when it was seen, its total, its score band) sits in typed columns. An entry's `line`
 * is built from the compact form each time it is read: a replay reads it once per request and
 * lets it go, so only the requests in flight are ever whole objects.
 *
 * The order and the duplicates follow prepareRecording's rule, which this must keep: lines outside
 * the period are left out first; a request recorded twice is replayed once, at the earliest
 * seen_at among its lines (the earlier line's text on equal instants), with the content of its
 * last line in the file; requests are ordered by that instant, and equal instants keep the order
 * in which each request first appeared in the file.
 */
import { getHeapStatistics } from 'node:v8';
import { parseCents } from '../../domain/index.js';
import type { LineWithoutData, RecordedData, RecordingLine, RecordingLineIssue } from '../../recording/index.js';
import { readRecordingBatches } from '../../recording/recording-io.js';
import type { OutcomeCounts, PeriodFilter, PreparedRecording, ReplayEntry, ReplayRead } from '../prepared-recording.js';
import { instant } from '../prepared-recording.js';
import { worldFactsOf, type WorldFacts } from '../world-facts.js';
import { realisedDefault } from '../realised-fate.js';
import { hasRecordedAcceptance } from '../recorded-acceptance.js';
import { scoreBandOf } from '../segment-stats.js';
import { CompactJson } from './compact-json.js';
import { NumberColumn, smallIntColumn, type TypedValues } from './number-column.js';

/** How far a read has come, for a person watching a long one. */
export interface ReadProgress {
  bytesRead: number;
  fileBytes: number;
  requests: number;
}

export interface CompactReadOptions {
  period?: PeriodFilter | undefined;
  /** Bad lines, by number, as the readable reader reports them. */
  onIssue: (issue: RecordingLineIssue) => void;
  /** The memory configured, in bytes (default: node's heap limit); the recording may take half of it. */
  memoryLimitBytes?: number | undefined;
  /** Called each `progressEveryBytes` of the file read (default: never). */
  onProgress?: ((progress: ReadProgress) => void) | undefined;
  progressEveryBytes?: number | undefined;
  /** The file's size, for the progress figures. */
  fileBytes?: number | undefined;
}

/**
 * What one request costs beside its compact bytes: eight numbers in columns, its entry object and
 * its place in the entries list, and the id map while reading (about 170 bytes of heap a request
 * after reading 200,000 sandbox requests, before the world group column's 4 bytes); used
 * only to say that a recording will not fit.
 */
const BYTES_PER_REQUEST_BESIDE_LINE = 232;

/** The columns of a CompactLines, by name, as another thread reads them (shared memory: no copy). */
export interface SharedColumns {
  length: number;
  values: Record<'seenMs' | 'seenAt' | 'line' | 'totalCents' | 'band' | 'recordedAcceptance' | 'realisedDefault' | 'group', TypedValues>;
}

/** The recording's lines in compact form, with the per-request columns, in reading order (slots). */
export class CompactLines {
  readonly json: CompactJson;
  readonly seenMs: NumberColumn;
  readonly seenAt: NumberColumn;
  readonly line: NumberColumn;
  readonly totalCents: NumberColumn;
  /** The score band's index in bandNames (any text a provider sends: not bounded to a byte). */
  readonly band: NumberColumn;
  /** Per request: 1 when its outcome records acceptance; its realised default, 1, 0 or -1 (unknown). */
  readonly recordedAcceptance: NumberColumn;
  readonly realisedDefault: NumberColumn;
  /** Per request: its world group's index in groups (WorldFacts). */
  readonly group: NumberColumn;
  readonly groups: Array<{ level: string; group: string }>;
  /** Only while reading: a thread reading shared columns never adds a group. */
  private readonly groupIndex = new Map<string, number>();
  readonly bandNames: string[];
  private readonly bandIndex = new Map<string, number>();
  private readonly cents = new Map<string, number>();

  /** Empty, to be read into; or over the parts another thread shared (shared-compact-recording.ts). */
  constructor(shared?: {
    json: CompactJson;
    columns: SharedColumns;
    bandNames: string[];
    groups: Array<{ level: string; group: string }>;
  }) {
    const column = (name: keyof SharedColumns['values'], make: () => NumberColumn): NumberColumn =>
      shared ? NumberColumn.over(shared.columns.values[name], shared.columns.length) : make();
    const doubles = (): NumberColumn => new NumberColumn();
    this.json = shared?.json ?? new CompactJson();
    this.seenMs = column('seenMs', doubles);
    this.seenAt = column('seenAt', doubles);
    this.line = column('line', doubles);
    this.totalCents = column('totalCents', doubles);
    this.band = column('band', doubles);
    this.recordedAcceptance = column('recordedAcceptance', smallIntColumn);
    this.realisedDefault = column('realisedDefault', smallIntColumn);
    this.group = column('group', () => new NumberColumn((length) => new Int32Array(new SharedArrayBuffer(length * 4))));
    this.bandNames = shared ? [...shared.bandNames] : [];
    this.groups = shared ? shared.groups.map((g) => ({ ...g })) : [];
  }

  /** The columns, for another thread (shared memory: no copy). */
  shareColumns(): SharedColumns {
    const { seenMs, seenAt, line, totalCents, band, recordedAcceptance, realisedDefault, group } = this;
    const columns = { seenMs, seenAt, line, totalCents, band, recordedAcceptance, realisedDefault, group };
    const values = Object.fromEntries(Object.entries(columns).map(([name, c]) => [name, c.storage])) as SharedColumns['values'];
    return { length: line.length, values };
  }

  centsOf(text: string): number {
    let value = this.cents.get(text);
    if (value === undefined) {
      // Amounts repeat ("250.00" on thousands of requests); a bounded memo of them.
      if (this.cents.size >= 100_000) this.cents.clear();
      this.cents.set(text, (value = parseCents(text)));
    }
    return value;
  }

  groupOf(line: RecordingLine): number {
    const { level, group } = worldFactsOf(line);
    let index = this.groupIndex.get(group);
    if (index === undefined) {
      index = this.groups.length;
      this.groups.push({ level, group });
      this.groupIndex.set(group, index);
    }
    return index;
  }

  bandOf(line: RecordingLine): number {
    // Every line read here passed the recording check (parseRecordingLine).
    const name = scoreBandOf(line.scores, true);
    let index = this.bandIndex.get(name);
    if (index === undefined) {
      index = this.bandNames.length;
      this.bandNames.push(name);
      this.bandIndex.set(name, index);
    }
    return index;
  }
}

/** The keys of a line a replay reads through its data source only (RecordedData), in DeferredData's order. */
const RECORDED_DATA_KEYS: readonly string[] = ['data_aggs', 'scores', 'borrower_history'];

/**
 * A line's recorded data, each part built from the compact form when first read: most requests a
 * replay decides never get as far as buying data (a filter or the guard stops them first), so
 * their banking data and scores, two thirds of a sandbox line, are never built.
 */
class DeferredData implements RecordedData {
  private aggs: RecordingLine['data_aggs'];
  private results: RecordingLine['scores'];
  private history: RecordingLine['borrower_history'];
  /** Which parts are built: bit i for RECORDED_DATA_KEYS[i]. */
  private built = 0;

  constructor(
    private readonly json: CompactJson,
    /** Per key of RECORDED_DATA_KEYS, the address of its value (-1: the line has none). */
    private readonly at: readonly number[],
  ) {}

  /** Part `index`, built the first time it is asked for (undefined when the line has none). */
  private part(index: number): unknown {
    this.built |= 1 << index;
    const address = this.at[index] as number;
    return address < 0 ? undefined : this.json.decode(address);
  }

  get data_aggs(): RecordingLine['data_aggs'] {
    if ((this.built & 1) === 0) this.aggs = this.part(0) as RecordingLine['data_aggs'];
    return this.aggs;
  }

  get scores(): RecordingLine['scores'] {
    if ((this.built & 2) === 0) this.results = this.part(1) as RecordingLine['scores'];
    return this.results;
  }

  get borrower_history(): RecordingLine['borrower_history'] {
    if ((this.built & 4) === 0) this.history = this.part(2) as RecordingLine['borrower_history'];
    return this.history;
  }
}

/** One request of a compact recording; its line is built anew at each read of `line`. */
export class CompactEntry implements ReplayEntry {
  constructor(
    readonly lines: CompactLines,
    readonly slot: number,
  ) {}

  get line(): RecordingLine {
    return this.lines.json.decode(this.lines.line.get(this.slot)) as RecordingLine;
  }

  worldFacts(): WorldFacts {
    const { level, group } = this.lines.groups[this.lines.group.get(this.slot)] as { level: string; group: string };
    const defaulted = this.lines.realisedDefault.get(this.slot);
    return { level, group, defaulted: defaulted < 0 ? undefined : defaulted === 1 };
  }

  readForReplay(): ReplayRead {
    const at = [-1, -1, -1];
    const line = this.lines.json.decodeDeferring(this.lines.line.get(this.slot), RECORDED_DATA_KEYS, at) as LineWithoutData;
    return { line, data: new DeferredData(this.lines.json, at) };
  }

  get seenAt(): string {
    return this.lines.json.decode(this.lines.seenAt.get(this.slot)) as string;
  }

  get seenMs(): number {
    return this.lines.seenMs.get(this.slot);
  }

  get totalCents(): number {
    return this.lines.totalCents.get(this.slot);
  }

  get scoreBand(): string {
    return this.lines.bandNames[this.lines.band.get(this.slot)] as string;
  }
}

/** The heap limit node runs with (--max-old-space-size), the memory a recording may take by default. */
function configuredMemoryBytes(): number {
  return getHeapStatistics().heap_size_limit;
}

const MB = 1024 * 1024;

/** Reads `file` into a compact prepared recording; see the first comment for the order and duplicates. */
export async function loadCompactRecording(file: string, options: CompactReadOptions): Promise<PreparedRecording> {
  const fromMs = instant(options.period?.from, Number.NEGATIVE_INFINITY);
  const toMs = instant(options.period?.to, Number.POSITIVE_INFINITY);
  const limit = options.memoryLimitBytes ?? configuredMemoryBytes();
  const every = options.progressEveryBytes ?? Number.POSITIVE_INFINITY;
  const lines = new CompactLines();
  const slotOf = new Map<number, number>();
  let duplicates = 0;
  let nextProgress = every;
  for await (const batch of readRecordingBatches(file, options.onIssue)) {
    for (const line of batch.lines) {
      const seenMs = Date.parse(line.seen_at);
      if (seenMs < fromMs || seenMs >= toMs) continue;
      const id = line.loan_request.id;
      let slot = slotOf.get(id);
      if (slot === undefined) {
        slot = lines.line.length;
        slotOf.set(id, slot);
        lines.seenMs.push(seenMs);
        lines.seenAt.push(lines.json.encode(line.seen_at));
      } else {
        duplicates += 1;
        // The earliest instant stays; the earlier line's text on equal instants.
        if (!(lines.seenMs.get(slot) <= seenMs)) {
          lines.seenMs.set(slot, seenMs);
          lines.seenAt.set(slot, lines.json.encode(line.seen_at));
        }
      }
      lines.line.set(slot, lines.json.encode(line));
      lines.totalCents.set(slot, lines.centsOf(line.loan_request.total_amount));
      lines.band.set(slot, lines.bandOf(line));
      lines.group.set(slot, lines.groupOf(line));
      lines.recordedAcceptance.set(slot, hasRecordedAcceptance(line) ? 1 : 0);
      const defaulted = realisedDefault(line);
      lines.realisedDefault.set(slot, defaulted === undefined ? -1 : defaulted ? 1 : 0);
    }
    const held = lines.json.bytes + lines.line.length * BYTES_PER_REQUEST_BESIDE_LINE;
    // Half of the limit: the other half is the replays' working memory (the lines in flight,
    // the parser's garbage, the results).
    if (held > limit / 2) {
      throw new RecordingTooLargeError(
        `the recording ${file} does not fit in the ${Math.round(limit / MB).toLocaleString('en-US')} MB of memory configured ` +
          `(node's heap limit; the recording may take half of it, the replays need the rest): ` +
          `${lines.line.length.toLocaleString('en-US')} requests already take ${Math.round(held / MB).toLocaleString('en-US')} MB ` +
          `after ${Math.round(batch.bytesRead / MB).toLocaleString('en-US')} MB of the file. ` +
          'Give node more memory (NODE_OPTIONS=--max-old-space-size=<MB>) or replay a part of it with --from and --to.',
        limit,
      );
    }
    if (batch.bytesRead >= nextProgress) {
      options.onProgress?.({ bytesRead: batch.bytesRead, fileBytes: options.fileBytes ?? batch.bytesRead, requests: lines.line.length });
      while (nextProgress <= batch.bytesRead) nextProgress += every;
    }
  }
  const n = lines.line.length;
  const order = new Uint32Array(n);
  for (let slot = 0; slot < n; slot += 1) order[slot] = slot;
  const seen = lines.seenMs;
  // By time; equal times keep the order each request first appeared in (its slot).
  order.sort((a, b) => seen.get(a) - seen.get(b) || a - b);
  return compactEntries(lines, order, duplicates);
}

/** The prepared recording of `lines` replayed in `order` (slots), with its outcome counts. */
export function compactEntries(lines: CompactLines, order: Uint32Array, duplicates: number): PreparedRecording {
  const n = order.length;
  const entries: ReplayEntry[] = new Array<ReplayEntry>(n);
  for (let index = 0; index < n; index += 1) entries[index] = new CompactEntry(lines, order[index] as number);
  const outcomeCounts: OutcomeCounts = { of: entries, recordedAcceptance: 0, resolved: 0, defaults: 0 };
  for (let slot = 0; slot < lines.line.length; slot += 1) {
    outcomeCounts.recordedAcceptance += lines.recordedAcceptance.get(slot);
    const defaulted = lines.realisedDefault.get(slot);
    if (defaulted >= 0) outcomeCounts.resolved += 1;
    if (defaulted === 1) outcomeCounts.defaults += 1;
  }
  return { entries, duplicates, outcomeCounts };
}

/** A recording larger than the memory configured for it; `limitBytes` names the limit. */
export class RecordingTooLargeError extends Error {
  override readonly name = 'RecordingTooLargeError';
  constructor(
    message: string,
    readonly limitBytes: number,
  ) {
    super(message);
  }
}
