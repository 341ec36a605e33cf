/**
 * A compact recording read by other threads without a copy of their own: tune's worker threads
 * (src/backtest/tune/worker-pool.ts) each read the whole recording, and a year of a busy
 * marketplace read once per thread would take three times the memory on two cores (issue 39).
 * The compact bytes and the columns are in shared memory from the start (compact-json.ts,
 * number-column.ts), so sharing copies only the small tables (the repeated strings, the shapes'
 * key lists, the score bands) and the replay order; each thread builds its own entries over them.
 */
import type { PreparedRecording } from '../prepared-recording.js';
import { CompactJson, type SharedCompactJson } from './compact-json.js';
import { CompactEntry, CompactLines, compactEntries, type SharedColumns } from './compact-recording.js';

/** What a worker thread needs to read a loaded recording: structured-cloned, the shared memory not copied. */
export interface SharedCompactRecording {
  json: SharedCompactJson;
  columns: SharedColumns;
  bandNames: string[];
  groups: Array<{ level: string; group: string }>;
  /** The slots in replay order (shared memory). */
  order: Uint32Array;
  duplicates: number;
}

/**
 * The shareable parts of a recording as loadRecording read it (every request it holds, in replay
 * order); undefined for any other recording (a slice, lines prepared from a database), which a
 * thread must then read itself.
 */
export function shareCompactRecording(recording: PreparedRecording): SharedCompactRecording | undefined {
  const { entries } = recording;
  const first = entries[0];
  if (!(first instanceof CompactEntry) || entries.length !== first.lines.line.length) return undefined;
  const { lines } = first;
  const order = new Uint32Array(new SharedArrayBuffer(entries.length * Uint32Array.BYTES_PER_ELEMENT));
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index];
    if (!(entry instanceof CompactEntry) || entry.lines !== lines) return undefined;
    order[index] = entry.slot;
  }
  return {
    json: lines.json.share(),
    columns: lines.shareColumns(),
    bandNames: [...lines.bandNames],
    groups: lines.groups.map((g) => ({ ...g })),
    order,
    duplicates: recording.duplicates,
  };
}

/** The recording `shared` describes, read in this thread: the same entries, lines and outcome counts. */
export function compactRecordingFromShared(shared: SharedCompactRecording): PreparedRecording {
  const lines = new CompactLines({
    json: CompactJson.fromShared(shared.json),
    columns: shared.columns,
    bandNames: shared.bandNames,
    groups: shared.groups,
  });
  return compactEntries(lines, shared.order, shared.duplicates);
}
