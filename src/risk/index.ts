// The risk guard's public face: limits, the pure check, and the live snapshot from the store.
export * from './risk-limits.js';
export * from './protection-settings.js';
export * from './check-offer.js';
export * from './store-snapshot.js';
export * from './check-funding.js';
export * from './account-money.js';
export * from './money-caps.js';
