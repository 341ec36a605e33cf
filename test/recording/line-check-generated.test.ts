/**
 * The recording line check's code is written ahead of time (scripts/generate-line-check.ts) so a
 * backtest does not run Ajv's compiler at every start. The committed file must be what the script
 * writes from today's schema, and a reader must use it (its verdicts: line-check-equivalence.test.ts).
 * When it is stale, no fast check runs: zod reads every line.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lineCheckGeneratedText } from '../../scripts/line-check-source.js';
import { recordingLineCheck, writtenLineCheck } from '../../src/recording/line-check.js';
import { lineCheckSchema } from '../../src/recording/line-check-schema.js';
import { LINE_CHECK_SCHEMA_SHA256, LINE_CHECK_SOURCE } from '../../src/recording/line-check.generated.js';

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

  it('is not used when it was made from another schema: zod reads every line then', () => {
    const prepared = lineCheckSchema();
    if (prepared === null) throw new Error('no fast check for the schema');
    expect(writtenLineCheck(prepared, { sha256: LINE_CHECK_SCHEMA_SHA256, source: LINE_CHECK_SOURCE })).toBeTypeOf('function');
    expect(writtenLineCheck(prepared, { sha256: '0'.repeat(64), source: LINE_CHECK_SOURCE })).toBeUndefined();
  });

  it('is the check readers use, and loading it leaves Ajv unloaded', () => {
    expect(recordingLineCheck()).toBeTypeOf('function');
    // In a process of its own: only the written code and Ajv's small runtime helper are loaded.
    const probe = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        "const { createRequire } = await import('node:module'); const m = await import('./src/recording/line-check.ts'); m.recordingLineCheck(); const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('/ajv/')); console.log(typeof m.recordingLineCheck(), loaded.map((k) => k.replace(/.*\\/ajv\\//, '')).join(' '));",
      ],
      { cwd: fileURLToPath(new URL('../..', import.meta.url)), encoding: 'utf8' },
    );
    expect(probe.stderr).toBe('');
    expect(probe.stdout.trim()).toBe('function dist/runtime/ucs2length.js');
  });
});
