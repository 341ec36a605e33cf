/**
 * Writes the LendingClub loans (bench/datasets/lending-club/lending_club.csv) as a lendbot
 * recording, one line per loan (docs/lending-club.md has the mapping and what it loses):
 *   node --import tsx scripts/lending-club-recording.ts --out lending-club.jsonl [--rows 9857] [--days 150]
 * then replay it: lendbot backtest --data lending-club.jsonl --strategy strategies/balanced.yaml
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openRecordingWriter } from '../src/recording/index.js';
import { LENDING_CLUB_CSV, lendingClubRecording, parseLendingClubCsv } from '../bench/lending-club-mapping.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    csv: { type: 'string', default: LENDING_CLUB_CSV },
    rows: { type: 'string' },
    days: { type: 'string', default: '150' },
    start: { type: 'string', default: '2016-01-01T00:00:00Z' },
  },
});
if (values.out === undefined) throw new Error('--out FILE.jsonl is required');
const loans = parseLendingClubCsv(readFileSync(values.csv, 'utf8'));
const lines = lendingClubRecording(loans, {
  start: values.start,
  days: Number(values.days),
  ...(values.rows === undefined ? {} : { rows: Number(values.rows) }),
});
const writer = await openRecordingWriter(values.out);
for (const line of lines) await writer.write(line);
await writer.close();
const defaults = lines.filter((line) => line.outcome?.status === 'default').length;
console.log(`wrote ${lines.length} loans to ${values.out} (${defaults} defaulted, ${((defaults / lines.length) * 100).toFixed(1)} %)`);
