// The webhook listener's public face: verify, dedupe, durable inbox.
export * from './event-schema.js';
export * from './verify-token.js';
export * from './webhook-server.js';
export * from './token-layout.js';
export * from './signed-delivery.js';
export * from './refusal-warning.js';
export { MAX_JSON_DEPTH } from './json-depth.js';
