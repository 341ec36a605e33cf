/**
 * The borrower loan history (spec 4.9) in a replay: the recording's `borrower_history` is the data
 * source, asked for only once the free filters pass; a line without it is "not found", as the
 * service's 404 is, and the strategy decides without it.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordingDataSource, runBacktest } from '../../src/backtest/index.js';
import { ReplayDataSource } from '../../src/backtest/recording-data.js';
import { explainRecordedRequest } from '../../src/cli/commands/strategy/explain.js';
import { formatExplanation } from '../../src/cli/commands/strategy/explain-format.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { parseRecordingLine, type RecordingLine } from '../../src/recording/index.js';
import { historyItem } from '../engine/fixtures.js';
import { recordingLine } from './recording-fixtures.js';

const HISTORY_FILTER = fileURLToPath(new URL('../daemon/fixtures/history-filter.yaml', import.meta.url));

function withHistory(line: RecordingLine, history: unknown[] | undefined): RecordingLine {
  return history === undefined ? line : { ...line, borrower_history: history as RecordingLine['borrower_history'] };
}

const lines = [
  // Two completed loans on file: passes the history filter and offers.
  withHistory(recordingLine({ id: 1, seenAt: '2026-11-20T10:00:00Z' }), [historyItem('500.00', '0.20'), historyItem('800.00', '0.30')]),
  // Fetched, none on file.
  withHistory(recordingLine({ id: 2, seenAt: '2026-11-20T10:01:00Z' }), []),
  // Never fetched (or 404 live): not found, so absent.
  recordingLine({ id: 3, seenAt: '2026-11-20T10:02:00Z' }),
  // Fails the free filter: its history, recorded or not, is never asked for.
  withHistory(recordingLine({ id: 4, seenAt: '2026-11-20T10:03:00Z', request: { loan_terms: 24 } }), [historyItem()]),
];

describe('borrower history in a replay', () => {
  it('reads borrower_history from the line: present, empty, absent', () => {
    const [full, empty, absent] = lines as [RecordingLine, RecordingLine, RecordingLine];
    expect(recordingDataSource(full).borrowerHistory(full.loan_request)).toEqual({ ok: true, value: full.borrower_history });
    expect(recordingDataSource(empty).borrowerHistory(empty.loan_request)).toEqual({ ok: true, value: [] });
    expect(recordingDataSource(absent).borrowerHistory(absent.loan_request)).toEqual({ ok: false, detail: 'not in recording' });
    const replay = new ReplayDataSource();
    replay.line = full;
    expect(replay.borrowerHistory()).toEqual({ ok: true, value: full.borrower_history });
    replay.line = absent;
    expect(replay.borrowerHistory()).toEqual({ ok: false, detail: 'not in recording' });
  });

  it('keeps borrower_history through the reader, and older lines without it still read', () => {
    const text = JSON.stringify(lines[0]);
    const parsed = parseRecordingLine(text);
    expect(parsed.ok && parsed.value.borrower_history?.length).toBe(2);
    const bad = parseRecordingLine(JSON.stringify({ ...lines[0], borrower_history: [{ loan_amount: 5 }] }));
    expect(bad.ok).toBe(false);
  });

  it('decides with the history after the free filters, as the daemon does', async () => {
    const strategy = await loadStrategyFile(HISTORY_FILTER);
    const result = runBacktest(lines, [strategy], { startingBalanceCents: 1_000_000, market: { settle: false }, recordDecisions: true });
    const byId = new Map(result.decisions.map((decision) => [decision.loan_request_id, decision]));
    expect(byId.get(1)?.action).toBe('offer');
    expect(byId.get(2)).toMatchObject({ action: 'skip', reasons: ['filter history_loans < 1'] });
    expect(byId.get(3)).toMatchObject({ action: 'skip', reasons: ['filter history_loans missing', 'data borrower_history not found'] });
    expect(byId.get(4)).toMatchObject({ action: 'skip', reasons: ['filter loan_terms > 12'] });
  });

  it('strategy explain shows the pass that asked for the history and the history features', async () => {
    const strategy = await loadStrategyFile(HISTORY_FILTER);
    const offered = explainRecordedRequest([strategy], lines[0] as RecordingLine, 500_000);
    expect(offered.needsPasses.map((pass) => pass.needs)).toEqual([[{ kind: 'borrower_history' }]]);
    expect(offered.decision.features).toMatchObject({ history_loans: 2 });
    const text = formatExplanation(strategy, (lines[0] as RecordingLine).loan_request, offered);
    expect(text).toContain('asked for borrower history (data borrower_history needed (free filters passed))');
    expect(text).toMatch(/history_loans\s+2\n/);

    const filtered = explainRecordedRequest([strategy], lines[3] as RecordingLine, 500_000);
    expect(filtered.needsPasses).toEqual([]);
    expect(filtered.decision.features).toMatchObject({ history_loans: null });
  });
});
