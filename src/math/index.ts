/**
 * Loan and statistics math on the ground floor: the annuity arithmetic and loan economics
 * pricing rests on, a loan's cash flows month by month, log-odds, and the intervals every
 * report states its rates with. Pure functions of numbers; it imports nothing of src/
 * (test/layout/math-floor.test.ts), so the engine, the backtest, the sandbox and ops all import
 * it downward and compute the same figures.
 */
export * from './loan-cash-flows.js';
export * from './loan-math.js';
export * from './log-odds.js';
export * from './rate-intervals.js';
