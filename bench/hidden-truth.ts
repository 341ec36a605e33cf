/**
 * The sandbox's hidden chance of full repayment per loan request, which an export does not write
 * (the recording carries only the drawn outcome): the market an export runs, run again headless
 * with the same options (it is a pure function of them), read request by request. For the risk
 * clairvoyant of bench/pricing-ceiling.ts (src/backtest/clairvoyant-strategies.ts).
 */
import { runHeadlessMarket, type ExportOptions } from '../src/sandbox/index.js';

/** Request id to its true repayment probability, for the market `exportSandboxRecording(file, options)` writes. */
export function hiddenRepayProbabilities(options: Omit<ExportOptions, 'includeTransactions' | 'providerNames'>): Map<number, number> {
  const market = runHeadlessMarket(options);
  return new Map([...market.requests.values()].map((request) => [request.id, request.truth.repayProbability]));
}
