/**
 * Reading and writing recordings. A reader reports each bad line by number and goes on, so one
 * damaged line never costs a whole backtest.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { jsonPath } from '../service/index.js';
import { recordingLineSchema, type RecordingLine } from './recording-schema.js';

/** A line that could not be read. */
export interface RecordingLineIssue {
  file: string;
  line: number;
  message: string;
}

/** Parses one line of a recording; returns the line or a message saying what is wrong. */
export function parseRecordingLine(text: string): { ok: true; value: RecordingLine } | { ok: false; message: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = recordingLineSchema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const first = parsed.error.issues[0];
  const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more)` : '';
  return { ok: false, message: first ? `${jsonPath(first.path)}: ${first.message}${more}` : 'invalid' };
}

/** Reads every good line of a recording file; bad lines go to `onIssue` and are skipped. */
export async function* readRecording(
  file: string,
  onIssue: (issue: RecordingLineIssue) => void,
): AsyncGenerator<RecordingLine, void, undefined> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let number = 0;
  for await (const text of lines) {
    number += 1;
    if (text.trim() === '') continue;
    const result = parseRecordingLine(text);
    if (result.ok) yield result.value;
    else onIssue({ file, line: number, message: result.message });
  }
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
