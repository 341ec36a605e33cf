// A logger whose JSON lines land in an array, for asserting on what was logged.
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/log/logger.js';

export function captureLog(level: 'debug' | 'info' = 'info'): { log: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger({ level, destination: sink }), lines };
}
