/**
 * The worlds bench/shipped-defaults.ts judges shipped strategies on (issue 35): sandbox shapes at
 * several default levels and score links (docs/sandbox.md, "Shifted worlds"), each a recording
 * exported into a temporary folder, and the LendingClub loans (docs/lending-club.md).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultBalance, loadRecording, type PreparedRecording } from '../src/backtest/index.js';
import { openRecordingWriter } from '../src/recording/index.js';
import {
  exportSandboxRecording,
  worldShiftLabel,
  type HistoryRateMode,
  type ScoreLinkName,
  type WorldShift,
} from '../src/sandbox/index.js';
import { DAY_MS, HOUR_MS } from '../src/clock/time-constants.js';
import { LENDING_CLUB_CSV, lendingClubRecording, parseLendingClubCsv } from './lending-club-mapping.js';

export const LENDING_CLUB = 'lending-club';

export interface WorldSpec {
  /** How the tables name it: "shoppers-1", "shoppers-1 default odds x0.4", "lending-club". */
  name: string;
  /** The sandbox shape, or LENDING_CLUB. */
  kind: string;
  seed: number;
  shift: WorldShift;
}

export interface WorldGrid {
  /** Sandbox shapes and/or LENDING_CLUB. */
  worlds: string[];
  seeds: number[];
  scales: number[];
  links: ScoreLinkName[];
  /** How borrowers' past loans were priced (docs/sandbox.md); each mode is a world of its own (absent: market). */
  histories?: HistoryRateMode[];
}

/**
 * Every world of the grid: each shape and seed at each default scale, then at each score link
 * (scale 1), each with every history mode; LendingClub once.
 */
export function worldSpecs(grid: WorldGrid): WorldSpec[] {
  const specs: WorldSpec[] = [];
  for (const kind of grid.worlds) {
    if (kind === LENDING_CLUB) {
      specs.push({ name: LENDING_CLUB, kind, seed: 0, shift: {} });
      continue;
    }
    for (const seed of grid.seeds) {
      const shifts: WorldShift[] = [
        ...grid.scales.map((scale) => (scale === 1 ? {} : { defaultScale: scale })),
        ...grid.links.map((link) => ({ scoreLink: link })),
      ].flatMap((shift) => (grid.histories ?? ['market']).map((mode) => (mode === 'market' ? shift : { ...shift, historyRates: mode })));
      for (const shift of shifts) {
        const label = worldShiftLabel(shift);
        specs.push({ name: `${kind}-${seed}${label === '' ? '' : ` ${label}`}`, kind, seed, shift });
      }
    }
  }
  return specs;
}

/** Writes the world's recording under `dir` (requests arriving over `days`) and loads it. */
export async function worldRecording(
  spec: WorldSpec,
  dir: string,
  requests: number,
  days: number,
): Promise<{ file: string; recording: PreparedRecording }> {
  const file = join(dir, `${spec.name.replace(/[^\w.-]+/g, '_')}.jsonl`);
  if (spec.kind === LENDING_CLUB) {
    const writer = await openRecordingWriter(file);
    for (const line of lendingClubRecording(parseLendingClubCsv(readFileSync(LENDING_CLUB_CSV, 'utf8')), { days }))
      await writer.write(line);
    await writer.close();
  } else {
    await exportSandboxRecording(file, {
      seed: spec.seed,
      requests,
      shape: spec.kind,
      arrivalsPerHour: requests / ((days * DAY_MS) / HOUR_MS),
      defaultScale: spec.shift.defaultScale,
      scoreLink: spec.shift.scoreLink,
      historyRates: spec.shift.historyRates,
    });
  }
  const issues: string[] = [];
  const recording = await loadRecording(file, {}, (issue) => issues.push(`${issue.line}: ${issue.message}`));
  if (issues.length > 0) throw new Error(`${file}: ${issues.length} bad lines, first ${issues[0]}`);
  return { file, recording };
}

/** The options of the one-seed diagnoses, as their command lines give them. */
export interface OneSeedOptions {
  worlds: string;
  seed: string;
  requests: string;
  days: string;
  /** The sandbox worlds' balance, USD. */
  balance: string;
  /** LendingClub's balance, USD, or 'fit' (the default): 100 × its average loan (docs/backtesting.md). */
  'lending-club-balance'?: string;
}

/**
 * Each world of the comma-separated `worlds` at one seed and today's default level, with its
 * starting balance; its recording is written into a temporary folder that is removed once the
 * caller has gone through them all (the one-seed diagnoses: offer-bands.ts, level-evidence.ts).
 */
export async function* oneSeedWorlds(
  options: OneSeedOptions,
): AsyncGenerator<{ spec: WorldSpec; recording: PreparedRecording; lendingClub: boolean; startingBalanceCents: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-worlds-'));
  const usd = (text: string): number => Math.round(Number(text) * 100);
  try {
    for (const spec of worldSpecs({ worlds: options.worlds.split(','), seeds: [Number(options.seed)], scales: [1], links: [] })) {
      const { recording } = await worldRecording(spec, dir, Number(options.requests), Number(options.days));
      const lendingClub = spec.kind === LENDING_CLUB;
      const lendingClubBalance = options['lending-club-balance'] ?? 'fit';
      const startingBalanceCents = !lendingClub
        ? usd(options.balance)
        : lendingClubBalance === 'fit'
          ? defaultBalance(recording).cents
          : usd(lendingClubBalance);
      yield { spec, recording, lendingClub, startingBalanceCents };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
