/**
 * Saying when a strategy prices for expected profit against the unfitted default market (no
 * market file, no numbers of its own, no model carrying a fit): the backtest report, `lendbot
 * status` and the dashboard show the same words.
 */

/** What a lender reads beside such a strategy. */
export const UNFITTED_MARKET_TEXT = 'prices with the unfitted default market; fit one with lendbot train';

