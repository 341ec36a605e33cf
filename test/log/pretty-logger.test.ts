import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createLogger, onTerminal, type Logger } from '../../src/log/logger.js';
import { captureLog } from './log-capture.js';
import { guardReason, reasonText, type DecisionReason } from '../../src/domain/decision-reason.js';

// What a terminal shows: colours stripped, the time of day replaced (it is the local time).
const plain = (text: string): string => stripVTControlCharacters(text).replace(/^\[\d\d:\d\d:\d\d\]/gm, '[time]');

const EXPECTED = '[time] INFO: poll done {"component":"test","apiKey":"[redacted]","loanRequestId":17}\n';

function terminal(level: 'info' | 'debug' = 'info'): { log: Logger; written: () => string } {
  let written = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString('utf8');
      done();
    },
  });
  return { log: createLogger({ pretty: true, level, destination: sink }), written: () => plain(written) };
}

/** A decision line's fields as the pipeline logs them (src/daemon/pipeline.ts). */
/** A decision line as the pipeline logs it: the reasons' texts and, beside them, their values. */
function decided({ reasons, ...fields }: Record<string, unknown> & { reasons: DecisionReason[] }): Record<string, unknown> {
  return {
    source: 'webhook',
    strategy: 'balanced',
    dryRun: false,
    totalAmount: '536.00',
    riskLevel: 0,
    ...fields,
    reasons: reasons.map(reasonText),
    reasonValues: reasons,
  };
}

const SCORE: DecisionReason = { code: 'score', probability: '0.91' };

describe('the logger on a terminal (pino-pretty)', () => {
  it('formats each line in this thread, as it is logged, on one line, with redaction', () => {
    let written = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString('utf8');
        done();
      },
    });
    const log = createLogger({ pretty: true, destination: sink }).child({ component: 'test' });
    log.info({ apiKey: 'key-123', loanRequestId: 17 }, 'poll done');
    // No worker thread in between: the line is there as soon as the call returns.
    expect(plain(written)).toBe(EXPECTED);
    expect(written).toContain('\u001b[32mINFO\u001b[39m');
  });

  it('writes the last lines to stdout when the process exits right after logging', () => {
    const script = [
      `import { createLogger } from ${JSON.stringify(fileURLToPath(new URL('../../src/log/logger.ts', import.meta.url)))};`,
      "const log = createLogger({ pretty: true }).child({ component: 'test' });",
      "log.info({ apiKey: 'key-123', loanRequestId: 17 }, 'poll done');",
      'process.exit(0);',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(plain(run.stdout)).toBe(EXPECTED);
  });

  it('says each decision in one line of plain words', () => {
    const { log, written } = terminal();
    const pipeline = log.child({ component: 'pipeline' });
    pipeline.info(
      decided({
        loanRequestId: 1234,
        action: 'offer',
        rate: 0.228,
        reasons: [SCORE, { code: 'price_required_rate', required: '0.2', rate: '0.228' }],
      }),
      'decided: offer',
    );
    pipeline.info(
      decided({
        loanRequestId: 1235,
        action: 'skip',
        rate: 0.3,
        reasons: [
          SCORE,
          guardReason({
            guardCode: 'insufficient_balance',
            at: 'offer',
            balance: '1198.00',
            reserved: '898.50',
            reserve: '0.00',
            total: '536.00',
            equal: false,
          }),
        ],
      }),
      'decided: skip',
    );
    pipeline.info(
      decided({
        loanRequestId: 1236,
        action: 'skip',
        reasons: [{ code: 'filter_failed', feature: 'credit_score_low', test: '<', bound: '600' }],
      }),
      'decided: skip',
    );
    pipeline.info(decided({ loanRequestId: 1237, action: 'offer', rate: 0.19, riskLevel: 2, dryRun: true, reasons: [] }), 'decided: offer');
    pipeline.info(
      decided({
        loanRequestId: 1238,
        action: 'offer',
        rate: 0.25,
        reasons: [{ code: 'offer_outcome_unknown', text: 'timeout after 10000 ms' }],
      }),
      'decided: offer',
    );
    // A line an older lendbot wrote has the texts alone: they are shown as they are, never parsed.
    pipeline.info(
      {
        source: 'webhook',
        strategy: 'balanced',
        totalAmount: '536.00',
        loanRequestId: 1239,
        action: 'skip',
        reasons: ['filter credit_score_low < 600'],
      },
      'decided: skip',
    );
    expect(written().split('\n')).toEqual([
      '[time] INFO: offer  #1234  $536.00 at 22.8 %  (balanced, risk low)',
      '[time] INFO: skip   #1235  not enough free cash: $299.50 free, the offer needs $536.00',
      "[time] INFO: skip   #1236  credit score is under the strategy's minimum 600",
      '[time] INFO: offer  #1237  $536.00 at 19 %  (balanced, risk high, dry run)',
      '[time] INFO: offer  #1238  $536.00 at 25 %  (balanced, risk low)  · offer sent, outcome unknown until the next poll (timeout after 10000 ms)',
      '[time] INFO: skip   #1239  filter credit_score_low < 600',
      '',
    ]);
  });

  it('shows the minute summary in words', () => {
    const { log, written } = terminal();
    log.info(
      {
        requests: 41,
        offers: 6,
        funded: 2,
        totalRequests: 300,
        totalOffers: 51,
        totalFunded: 1,
        balanceCents: 481_200,
        freeCents: 129_000,
      },
      'summary',
    );
    expect(written()).toBe(
      '[time] INFO: summary  last minute: 41 requests, 6 offers, 2 funded · since start: 300 requests, 51 offers, 1 funded · balance $4,812.00 · free $1,290.00\n',
    );
  });

  it('leaves webhook receipts and "offer placed" to level debug, where they show as they are', () => {
    for (const level of ['info', 'debug'] as const) {
      const { log, written } = terminal(level);
      log.info({ outcome: 'accepted', webhookUuid: 'u-1', layout: 'envelope' }, 'webhook received');
      log.info({ loanRequestId: 1234, offerId: 9, rate: 0.228, automateFund: true }, 'offer placed');
      log.info({ listed: 3 }, 'poll done');
      const lines = written()
        .split('\n')
        .filter((line) => line !== '');
      expect(lines.map((line) => line.replace(/ \{.*$/, ''))).toEqual(
        level === 'info'
          ? ['[time] INFO: poll done']
          : ['[time] INFO: webhook received', '[time] INFO: offer placed', '[time] INFO: poll done'],
      );
    }
  });

  it('knows a terminal logger and its children from a JSON one', () => {
    const { log } = terminal();
    expect(onTerminal(log)).toBe(true);
    expect(onTerminal(log.child({ component: 'a' }).child({ component: 'b' }))).toBe(true);
    const json = captureLog().log;
    expect(onTerminal(json)).toBe(false);
    expect(onTerminal(json.child({ component: 'a' }))).toBe(false);
  });
});
