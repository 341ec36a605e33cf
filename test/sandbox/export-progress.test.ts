// `lendbot sandbox export` on stderr: a plain line each 50,000 requests arrived or lines written.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { exportProgress, PROGRESS_EVERY } from '../../src/cli/commands/sandbox/export-progress.js';

describe('sandbox export progress', () => {
  it('writes a line each time another PROGRESS_EVERY requests arrived or lines were written, and nothing between', () => {
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const report = exportProgress({ stdout: new PassThrough(), stderr, env: {} });
    const at = (arrived: number, written: number, day: string): void =>
      report({ arrived, written, total: 1_000_000, simulatedMs: Date.parse(`${day}T06:00:00Z`), held: 0, waiting: 0 });
    at(720, 0, '2026-01-02');
    at(PROGRESS_EVERY - 1, 0, '2026-03-11');
    at(PROGRESS_EVERY, 0, '2026-03-12');
    at(PROGRESS_EVERY + 720, 0, '2026-03-13');
    at(600_000, 40_000, '2028-01-01');
    at(1_000_000, 1_000_000, '2031-01-01');
    expect(err.split('\n')).toEqual([
      'sandbox export: 50,000 of 1,000,000 requests arrived, 0 lines written (simulated 2026-03-12)',
      'sandbox export: 600,000 of 1,000,000 requests arrived, 40,000 lines written (simulated 2028-01-01)',
      'sandbox export: 1,000,000 of 1,000,000 requests arrived, 1,000,000 lines written (simulated 2031-01-01)',
      '',
    ]);
  });
});
