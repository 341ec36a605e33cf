/**
 * The recording line check's code is written ahead of time (scripts/generate-line-check.ts) so a
 * backtest does not run Ajv's compiler at every start. The committed file must be what the script
 * writes from today's schema, and a reader must use it; its verdicts equal zod's and the run-time
 * compiled check's (recording-reader.test.ts).
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lineCheckGeneratedText } from '../../src/recording/line-check-generated-text.js';
import { recordingLineCheckOrigin } from '../../src/recording/line-check.js';

const committed = fileURLToPath(new URL('../../src/recording/line-check.generated.ts', import.meta.url));

describe('the written recording line check', () => {
  it('is what scripts/generate-line-check.ts writes from the current schema', () => {
    const fresh = lineCheckGeneratedText();
    expect(fresh, 'the schema has no compiled check').not.toBeNull();
    // When this fails: node --import tsx scripts/generate-line-check.ts, and commit the file.
    expect(
      readFileSync(committed, 'utf8') === fresh,
      'src/recording/line-check.generated.ts is stale: run node --import tsx scripts/generate-line-check.ts',
    ).toBe(true);
  });

  it('is the check readers use, and loading it leaves Ajv unloaded', () => {
    expect(recordingLineCheckOrigin()).toBe('written');
    // In a process of its own: only the written code and Ajv's small runtime helper are loaded.
    const probe = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        "const { createRequire } = await import('node:module'); const m = await import('./src/recording/line-check.ts'); m.recordingLineCheck(); const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('/ajv/')); console.log(m.recordingLineCheckOrigin(), loaded.map((k) => k.replace(/.*\\/ajv\\//, '')).join(' '));",
      ],
      { cwd: fileURLToPath(new URL('../..', import.meta.url)), encoding: 'utf8' },
    );
    expect(probe.stderr).toBe('');
    expect(probe.stdout.trim()).toBe('written dist/runtime/ucs2length.js');
  });
});
