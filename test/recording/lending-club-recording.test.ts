import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  creditScoreRangeOf,
  gradeOfCreditScoreRange,
  LENDING_CLUB_CSV,
  missedMonthOf,
  parseLendingClubCsv,
  riskLevelOf,
} from '../../bench/lending-club-mapping.js';
import { loadRecording } from '../../src/backtest/index.js';
import type { RecordingLineIssue } from '../../src/recording/index.js';
import { tempDirForTest } from '../temp-dir.js';

const ROWS = 200;

/** The first `rows` rows of the CSV, as plain cells (a check independent of the mapping's own parser). */
function csvRows(rows: number): Array<Record<string, string>> {
  const [header = '', ...body] = readFileSync(LENDING_CLUB_CSV, 'utf8').trimEnd().split('\n');
  const names = header.split(',').map((cell) => cell.replaceAll('"', ''));
  return body.slice(0, rows).map((row) => {
    const cells = row.split(',').map((cell) => cell.replaceAll('"', ''));
    return Object.fromEntries(names.map((name, i) => [name, cells[i] ?? '']));
  });
}

describe('LendingClub loans as a recording (scripts/lending-club-recording.ts)', () => {
  it('maps the first 200 loans to lines the backtest reads with no line errors, grades and outcomes as documented', async () => {
    const dir = tempDirForTest('lendbot-lending-club-');
    const file = join(dir, 'lc.jsonl');
    const said = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/lending-club-recording.ts', '--out', file, '--rows', String(ROWS)],
      {
        encoding: 'utf8',
      },
    );
    const issues: RecordingLineIssue[] = [];
    const recording = await loadRecording(file, {}, (issue) => issues.push(issue));
    expect(issues).toEqual([]);
    expect(recording.entries).toHaveLength(ROWS);

    const rows = csvRows(ROWS);
    const bad = rows.filter((row) => row.Class === 'bad').length;
    const defaults = recording.entries.filter((entry) => entry.line.outcome?.status === 'default').length;
    expect(defaults).toBe(bad);
    expect(bad).toBeGreaterThan(0);
    expect(said).toContain(`wrote ${ROWS} loans to ${file} (${bad} defaulted`);

    const first = Date.parse(recording.entries[0]?.seenAt ?? '');
    const last = Date.parse(recording.entries.at(-1)?.seenAt ?? '');
    expect(last - first).toBeGreaterThan(149 * 86_400_000);
    expect(last - first).toBeLessThanOrEqual(150 * 86_400_000);
    const levelByGrade: Record<string, number> = { A: 0, B: 0, C: 1, D: 1, E: 2, F: 2, G: 2 };
    const capByLevel = [0.36, 0.6, 0.99];
    recording.entries.forEach((entry, i) => {
      const row = rows[i] ?? {};
      const { line } = entry;
      const request = line.loan_request;
      const grade = row.sub_grade?.[0] ?? '';
      expect(request.borrower_card_color).toBe(levelByGrade[grade]);
      expect(request.borrower.svc_color).toBe(levelByGrade[grade]);
      expect(request.max_interest_rate).toBe(capByLevel[levelByGrade[grade] ?? -1]);
      expect(gradeOfCreditScoreRange(request.borrower.credit_score)).toBe(grade);
      expect(request.loan_amount).toBe(Number(row.funded_amnt).toFixed(2));
      expect(request.loan_terms).toBe(row.term === 'term_36' ? 36 : 60);
      expect(request.borrower.hard_inquiries).toBe(Number(row.inq_last_6mths));
      expect(line.outcome?.status).toBe(row.Class === 'good' ? 'completed' : 'default');
      if (row.Class === 'bad') {
        // A default at a drawn instalment, the ones before it repaid.
        const missed = line.outcome?.missed_month ?? 0;
        expect(missed).toBe(missedMonthOf(i, request.loan_terms));
        expect(line.outcome?.repaid_fraction).toBeCloseTo((missed - 1) / request.loan_terms, 3);
      } else expect(line.outcome?.missed_month).toBeUndefined();
      expect(line.outcome?.funded_rate).toBeCloseTo(Number(row.int_rate) / 100, 10);
      expect(line.outcome?.best_competing_rate).toBe(line.outcome?.funded_rate);
      expect(line.outcome?.reservation_rate).toBeUndefined();
      expect(line.data_aggs).toBeUndefined();
      expect(line.scores).toBeUndefined();
      expect(Date.parse(line.outcome?.resolved_at ?? '')).toBeGreaterThan(entry.seenMs + (request.loan_terms - 1) * 30 * 86_400_000);
    });
  });

  it('spreads a bad loan’s missed instalment evenly over its term, the same for the same row', () => {
    for (const term of [36, 60]) {
      const months = Array.from({ length: 6000 }, (_, index) => missedMonthOf(index, term));
      expect(Math.min(...months)).toBe(1);
      expect(Math.max(...months)).toBe(term);
      // Each third of the term holds a third of the draws (± 4 standard errors of 6,000 draws: 0.024).
      for (const third of [0, 1, 2]) {
        const share = months.filter((month) => Math.floor(((month - 1) * 3) / term) === third).length / months.length;
        expect(Math.abs(share - 1 / 3)).toBeLessThan(0.024);
      }
      expect(missedMonthOf(17, term)).toBe(months[17]);
    }
  });

  it('spaces credit scores evenly by sub-grade from 796-799 (A1) to 660-663 (G5), and refuses an unknown sub-grade', () => {
    expect(creditScoreRangeOf('A1')).toBe('796-799');
    expect(creditScoreRangeOf('A2')).toBe('792-795');
    expect(creditScoreRangeOf('C3')).toBe('748-751');
    expect(creditScoreRangeOf('G5')).toBe('660-663');
    expect(riskLevelOf('B5')).toBe(0);
    expect(riskLevelOf('C1')).toBe(1);
    expect(riskLevelOf('E1')).toBe(2);
    expect(gradeOfCreditScoreRange('650-699')).toBeUndefined();
    expect(() => creditScoreRangeOf('H1')).toThrow('unknown sub-grade "H1"');
    expect(() => parseLendingClubCsv('"funded_amnt","term"\n1,"term_36"\n')).toThrow('the CSV has no column int_rate');
  });
});
