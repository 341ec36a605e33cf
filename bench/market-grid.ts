/**
 * The grid of sandbox markets the decision benches run over (bench/decision-quality.ts,
 * bench/paid-scores.ts): the command-line options they share and, for each market shape and
 * seed, a recording exported from the sandbox and loaded for backtests.
 */
import { join } from 'node:path';
import { drawSeeds, loadRecording, type PreparedRecording } from '../src/backtest/index.js';
import { exportSandboxRecording } from '../src/sandbox/index.js';

/** parseArgs options: spread them into a bench's own. */
export const MARKET_GRID_OPTIONS = {
  requests: { type: 'string', default: '6000' },
  arrivals: { type: 'string', default: '3' },
  seeds: { type: 'string', default: '1,2' },
  shapes: { type: 'string', default: 'classic,credit,burden,volatility' },
  draws: { type: 'string', default: '3' },
} as const;

export interface MarketGrid {
  requests: number;
  arrivalsPerHour: number;
  seeds: number[];
  shapes: string[];
  /** The market draws' seeds each backtest is averaged over. */
  draws: number[];
}

export function marketGrid(values: { requests: string; arrivals: string; seeds: string; shapes: string; draws: string }): MarketGrid {
  return {
    requests: Number(values.requests),
    arrivalsPerHour: Number(values.arrivals),
    seeds: values.seeds.split(',').map(Number),
    shapes: values.shapes.split(','),
    draws: drawSeeds(1, Number(values.draws)),
  };
}

/** Each market of the grid in turn: its recording written under `dir`, then loaded. */
export async function* marketRecordings(
  grid: MarketGrid,
  dir: string,
): AsyncGenerator<{ shape: string; seed: number; file: string; recording: PreparedRecording }> {
  for (const shape of grid.shapes) {
    for (const seed of grid.seeds) {
      const file = join(dir, `${shape}-${seed}.jsonl`);
      await exportSandboxRecording(file, { seed, requests: grid.requests, shape, arrivalsPerHour: grid.arrivalsPerHour });
      yield { shape, seed, file, recording: await loadRecording(file, {}, () => undefined) };
    }
  }
}
