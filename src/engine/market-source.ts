/**
 * Saying when a strategy prices for expected profit against the unfitted default market (no
 * market file, no numbers of its own, no model carrying a fit): the backtest report, `lendbot
 * status` and the dashboard show the same words.
 */
import type { MarketSource } from './compiled-strategy.js';

/** What a lender reads beside such a strategy. */
const UNFITTED_MARKET_TEXT = 'prices with the unfitted default market; fit one with lendbot train';

/**
 * What a lender reads beside a strategy whose market response is unfitted in whole or in part
 * (compile-strategy.ts's marketSourceOf); undefined when every part is fitted or set.
 */
export function unfittedMarketText(source: MarketSource | undefined): string | undefined {
  if (source === 'default') return UNFITTED_MARKET_TEXT;
  const parts = source?.split(', ') ?? [];
  const unfitted = parts.filter((part) => part.startsWith('default ')).map((part) => part.slice('default '.length));
  if (parts.length < 2 || unfitted.length === 0) return undefined;
  return `prices ${unfitted.join(' and ')} with the unfitted default (${source ?? ''}); fit it with lendbot train`;
}
