/**
 * The poll's read of the loan request list, against the sandbox (figures printed, never asserted):
 *   node --import tsx bench/poll-pages.ts [polls] [speed] [arrivals per hour]
 *
 * 1. Polls lost to a list that shrinks while it is read, on a market in its steady state (31 days
 *    of history, so requests leave the 30-day list as fast as new ones arrive) whose clock runs
 *    `speed` times real time (default 86400, 2 arrivals an hour), so requests come and go between
 *    two pages. Baseline:
 *    the read before issue 15 (every page collected, a 404 on a later page throws the poll away).
 *    lendbot: scanPages (a later 404 ends the scan; the pages read are kept). The two reads
 *    alternate on the same market.
 * 2. Pages and requests read per poll without list filters and with those the strategies allow
 *    (strategies/conservative.yaml: risk level 0 only), on a frozen market.
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadStrategyFile } from '../src/engine/index.js';
import { startSandbox, type SandboxHandle } from '../src/sandbox/index.js';
import {
  collectPages,
  createMarketplaceClient,
  DEFAULT_RETRY,
  scanPages,
  ServiceError,
  unionListFilters,
  type LoanRequestFilters,
  type MarketplaceClient,
  type ScanProgress,
} from '../src/service/index.js';

const polls = Number(process.argv[2] ?? 60);
const speed = Number(process.argv[3] ?? 86_400);
const arrivalsPerHour = Number(process.argv[4] ?? 2);

function clientOf(sandbox: SandboxHandle): MarketplaceClient {
  return createMarketplaceClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.credentials.apiKey,
    secretKey: sandbox.credentials.secretKey,
    signatureMode: 'timestamp-secret',
    numericRangeFormat: 'min-max-params',
    timeoutMs: 5000,
    retry: DEFAULT_RETRY,
  });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

// 1. A moving market.
{
  const sandbox = await startSandbox({ seed: 42, speed, arrivalsPerHour, warmupHours: 31 * 24 });
  const client = clientOf(sandbox);
  const baseline = { lost: 0, requests: [] as number[] };
  const lendbot = { vanished: 0, bound: 0, failed: 0, requests: [] as number[] };
  for (let i = 0; i < polls; i++) {
    try {
      const { items } = await collectPages(client.loanRequestPages());
      baseline.requests.push(items.length);
    } catch (error) {
      if (!(error instanceof ServiceError && error.code === 'NOT_FOUND')) throw error;
      baseline.lost += 1;
      baseline.requests.push(0);
    }
    const progress: ScanProgress = { pages: 0 };
    let read = 0;
    try {
      for await (const page of scanPages(client.loanRequestPages(), progress)) read += page.items.length;
      if (progress.cut) lendbot[progress.cut.reason] += 1;
    } catch {
      lendbot.failed += 1;
    }
    lendbot.requests.push(read);
  }
  console.log(`moving market (speed ${speed}, ${arrivalsPerHour} arrivals an hour), ${polls} polls each:`);
  console.log(
    `  baseline (collect every page, then decide): ${baseline.lost} of ${polls} polls lost to a vanished page (nothing of them decided); median ${median(baseline.requests)} requests read per poll`,
  );
  console.log(
    `  lendbot  (scanPages, decided page by page): ${lendbot.failed} of ${polls} polls lost; ${lendbot.vanished} ended at a vanished page and ${lendbot.bound} at the page bound, their pages kept; median ${median(lendbot.requests)} requests read per poll`,
  );
  client.close();
  await sandbox.close();
}

// 2. Pages read with and without the list filters, on a market that stands still.
{
  const sandbox = await startSandbox({ seed: 42, manualClock: true, warmupHours: 0 });
  sandbox.control.advance(72 * 3_600_000);
  const client = clientOf(sandbox);
  const conservative = await loadStrategyFile(fileURLToPath(new URL('../strategies/conservative.yaml', import.meta.url)));
  const filters = unionListFilters([conservative.listRestriction]);
  const read = async (query: LoanRequestFilters) => {
    const times: number[] = [];
    let result = { pages: 0, requests: 0 };
    for (let round = 0; round < 5; round++) {
      const started = performance.now();
      const progress: ScanProgress = { pages: 0 };
      let requests = 0;
      for await (const page of scanPages(client.loanRequestPages(query), progress)) requests += page.items.length;
      times.push(performance.now() - started);
      result = { pages: progress.pages, requests };
    }
    return { ...result, ms: median(times) };
  };
  const whole = await read({});
  const narrowed = await read(filters);
  console.log(`list filters for strategies/conservative.yaml: ${JSON.stringify(filters)}`);
  console.log(
    `  baseline (no filters): ${whole.pages} pages, ${whole.requests} requests, median ${whole.ms.toFixed(1)} ms a poll read (5 reads)`,
  );
  console.log(
    `  lendbot  (filters):    ${narrowed.pages} pages, ${narrowed.requests} requests, median ${narrowed.ms.toFixed(1)} ms a poll read (5 reads); ${(whole.pages / Math.max(1, narrowed.pages)).toFixed(1)}x fewer pages`,
  );
  client.close();
  await sandbox.close();
}
