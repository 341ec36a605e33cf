// A sandbox export read back: each line parsed as the recording reader parses it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRecordingLine, type RecordingLine } from '../../src/recording/index.js';
import { exportSandboxRecording } from '../../src/sandbox/index.js';

/** Exports `requests` requests of a shape and seed into `dir` and returns the parsed lines. */
export async function exportedLines(dir: string, shape: string, seed: number, requests: number): Promise<RecordingLine[]> {
  const file = join(dir, `${shape}-${seed}-${requests}.jsonl`);
  await exportSandboxRecording(file, { seed, requests, shape });
  return readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((text) => {
      const result = parseRecordingLine(text);
      if (!result.ok) throw new Error(result.message);
      return result.value;
    });
}
