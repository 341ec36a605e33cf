/**
 * Reading and writing recordings. A reader reports each bad line by number and goes on, so one
 * damaged line never costs a whole backtest.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname } from 'node:path';
import { firstIssue } from '../service/validation.js';
import { recordingLineCheck } from './line-check.js';
import { recordingLineSchema, type RecordingLine } from './recording-schema.js';

/** A line that could not be read. */
export interface RecordingLineIssue {
  file: string;
  line: number;
  message: string;
}

/** A line of a recording as read: the line, or what is wrong with it. */
export type ParsedRecordingLine = { ok: true; value: RecordingLine } | { ok: false; message: string };

/**
 * The one way to read a line of a recording, for every reader and writer. A line the fast check
 * (line-check.ts) accepts is used as JSON.parse made it, which reads the same as zod's output; any
 * other goes to zod (zodRecordingLine), whose verdict and message stand.
 */
export function parseRecordingLine(text: string): ParsedRecordingLine {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (recordingLineCheck()?.(json) === true) return { ok: true, value: json as RecordingLine };
  return zodRecordingLine(json);
}

/** The reference reading of a parsed line: zod's, its first issue as `path: message`. */
export function zodRecordingLine(json: unknown): ParsedRecordingLine {
  const parsed = recordingLineSchema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const { path, message } = firstIssue(parsed.error);
  return { ok: false, message: `${path}: ${message}` };
}

const NEWLINE = 0x0a;

/** Whether a line holds nothing but whitespace (skipped, as blank lines are). */
function isBlank(text: string): boolean {
  if (text.length === 0) return true;
  const first = text.charCodeAt(0);
  // JSON starts with a non-space character: trim only lines that start with a space.
  return (first <= 32 || first === 0xa0 || first === 0xfeff || first >= 0x1680) && text.trim() === '';
}

/** Lines of a file, numbered: texts[i] is line number first + i. */
interface LineChunk {
  first: number;
  texts: string[];
  /** Bytes of the file read up to the end of this chunk. */
  bytesRead: number;
}

/**
 * The lines of a file in chunks of many lines, split as readline splits them (at \n, \r\n and a
 * lone \r), numbered from 1. Chunks instead of one line at a time: an await per line costs more
 * than parsing it. Each chunk of bytes is decoded up to its last \n (a byte that is never part of
 * a multi-byte UTF-8 character), the rest carried to the next: no streaming decoder and no
 * joining of texts across chunks, about 40 ms less per 100 MB.
 */
async function* lineChunks(file: string): AsyncGenerator<LineChunk, void, undefined> {
  let carried: Buffer | undefined;
  let number = 1;
  let bytesRead = 0;
  const split = (text: string, out: string[]): void => {
    // A lone \r ends a line too (readline's rule); rare enough to take the slow path.
    if (text.includes('\r')) out.push(...text.split('\r'));
    else out.push(text);
  };
  const linesOf = (text: string, out: string[]): void => {
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      // The \r of a \r\n belongs to the break, not to the line.
      split(text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end), out);
      start = end + 1;
    }
  };
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    bytesRead += (chunk as Buffer).length;
    const bytes = carried === undefined ? (chunk as Buffer) : Buffer.concat([carried, chunk as Buffer]);
    const lastBreak = bytes.lastIndexOf(NEWLINE);
    if (lastBreak === -1) {
      carried = bytes;
      continue;
    }
    carried = lastBreak + 1 < bytes.length ? bytes.subarray(lastBreak + 1) : undefined;
    const out: string[] = [];
    linesOf(bytes.toString('utf8', 0, lastBreak + 1), out);
    yield { first: number, texts: out, bytesRead };
    number += out.length;
  }
  if (carried !== undefined) {
    // The last line, without a break after it.
    const rest = carried.toString('utf8');
    const out: string[] = [];
    split(rest.endsWith('\r') ? rest.slice(0, -1) : rest, out);
    yield { first: number, texts: out, bytesRead };
  }
}

/** Reads every good line of a recording file; bad lines go to `onIssue` and are skipped. */
export async function* readRecording(
  file: string,
  onIssue: (issue: RecordingLineIssue) => void,
): AsyncGenerator<RecordingLine, void, undefined> {
  for await (const chunk of lineChunks(file)) {
    for (const good of readChunk(file, chunk, onIssue)) yield good;
  }
}

/** readRecording into an array, without an await per line. */
export async function readRecordingLines(file: string, onIssue: (issue: RecordingLineIssue) => void): Promise<RecordingLine[]> {
  const lines: RecordingLine[] = [];
  for await (const chunk of lineChunks(file)) {
    for (const good of readChunk(file, chunk, onIssue)) lines.push(good);
  }
  return lines;
}

/**
 * readRecording a chunk of the file at a time (about 1 MB): its good lines and how many bytes of
 * the file are read so far, for a reader that keeps a compact form of each line and drops the
 * parsed one (src/backtest/compact/compact-recording.ts) and shows its progress.
 */
export async function* readRecordingBatches(
  file: string,
  onIssue: (issue: RecordingLineIssue) => void,
): AsyncGenerator<{ lines: RecordingLine[]; bytesRead: number }, void, undefined> {
  for await (const chunk of lineChunks(file)) yield { lines: readChunk(file, chunk, onIssue), bytesRead: chunk.bytesRead };
}

function readChunk(file: string, chunk: LineChunk, onIssue: (issue: RecordingLineIssue) => void): RecordingLine[] {
  const good: RecordingLine[] = [];
  const { first, texts } = chunk;
  for (let index = 0; index < texts.length; index += 1) {
    const text = texts[index] as string;
    if (isBlank(text)) continue;
    const result = parseRecordingLine(text);
    if (result.ok) good.push(result.value);
    else onIssue({ file, line: first + index, message: result.message });
  }
  return good;
}

/** One recording line as text (no trailing newline). */
export function formatRecordingLine(line: RecordingLine): string {
  return JSON.stringify(line);
}

/** Writes recording lines to a file, one at a time, creating its folder. */
export interface RecordingWriter {
  write(line: RecordingLine): Promise<void>;
  /** Flushes and closes the file. */
  close(): Promise<void>;
}

/**
 * Opens `file` for writing a recording. A folder that does not exist is created; a file that
 * cannot be opened is an error here, with its path, rather than a stream error nobody hears.
 */
export async function openRecordingWriter(file: string): Promise<RecordingWriter> {
  await mkdir(dirname(file), { recursive: true });
  // Owner-only, like the database: a recording holds the same borrowers' data.
  const stream = createWriteStream(file, { encoding: 'utf8', mode: 0o600 });
  // events.once rejects when the stream emits 'error' while we wait; this listener keeps an error
  // that happens between waits, so the next write reports it instead of crashing the process.
  let failure: Error | undefined;
  stream.on('error', (error) => {
    failure = error;
  });
  const fail = (error: unknown): never => {
    const cause = failure ?? (error instanceof Error ? error : new Error(String(error)));
    throw new Error(`cannot write ${file}: ${cause.message}`, { cause });
  };
  await once(stream, 'open').catch(fail);
  return {
    async write(line) {
      if (failure) fail(failure);
      if (!stream.write(`${formatRecordingLine(line)}\n`)) await once(stream, 'drain').catch(fail);
    },
    async close() {
      if (failure) fail(failure);
      stream.end();
      await once(stream, 'finish').catch(fail);
    },
  };
}
