import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';

// What a terminal shows: colours stripped, the timestamp replaced (it is the local time).
const plain = (text: string): string =>
  stripVTControlCharacters(text).replace(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} [+-]\d{4}\]/gm, '[time]');

const EXPECTED = ['[time] INFO: offer placed', '    app: "lendbot"', '    component: "test"', '    apiKey: "[redacted]"', '    loanRequestId: 17', ''].join('\n');

describe('the logger on a terminal (pino-pretty)', () => {
  it('formats each line in this thread, as it is logged, with redaction', () => {
    let written = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString('utf8');
        done();
      },
    });
    const log = createLogger({ pretty: true, destination: sink }).child({ component: 'test' });
    log.info({ apiKey: 'key-123', loanRequestId: 17 }, 'offer placed');
    // No worker thread in between: the line is there as soon as the call returns.
    expect(plain(written)).toBe(EXPECTED);
    expect(written).toContain('\u001b[32mINFO\u001b[39m');
  });

  it('writes the last lines to stdout when the process exits right after logging', () => {
    const script = [
      `import { createLogger } from ${JSON.stringify(fileURLToPath(new URL('../../src/log/logger.ts', import.meta.url)))};`,
      "const log = createLogger({ pretty: true }).child({ component: 'test' });",
      "log.info({ apiKey: 'key-123', loanRequestId: 17 }, 'offer placed');",
      'process.exit(0);',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(plain(run.stdout)).toBe(EXPECTED);
  });
});
