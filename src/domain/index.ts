/**
 * The shared vocabulary on the ground floor: money in cents, the marketplace's resources, risk
 * levels, the event topic, what became of an offer, and the one base and catalogue of errors.
 * Every other folder may import it; it imports nothing of src/ but itself
 * (test/layout/folder-cycles.test.ts), so the engine, the store and the guard speak these words
 * without depending on the HTTP client.
 *
 * The resources' zod schemas moved here whole rather than leaving plain types behind: each type
 * is inferred from its schema, so a hand-written copy would be a second definition to keep equal;
 * and the schemas are not only the client's (the recording reader, the sandbox, the risk limits'
 * money fields and the tests build and check resources with them). What is the client's alone
 * stays in src/service/: the pagination envelope, the plausibility rules an answer must pass,
 * the transport, signing and ServiceError.
 */
export * from './app-error.js';
export * from './error-codes.js';
export * from './configuration-error.js';
export * from './money.js';
export * from './balance.js';
export * from './risk-levels.js';
export * from './resources/index.js';
export * from './event-topics.js';
export * from './notification-events.js';
export * from './list-restriction.js';
export * from './place-outcome.js';
