// The resource schemas of marketplace part 2 and the types inferred from them.
export * from './common.js';
export * from './loan-request.js';
export * from './offer.js';
export * from './loan.js';
export * from './transfer.js';
export * from './banking-data.js';
export * from './provider-results.js';
