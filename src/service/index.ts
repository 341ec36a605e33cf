// The marketplace client's public face.
export * from './errors.js';
export * from './refusal-texts.js';
export * from './hmac-signer.js';
export * from './numeric-filters.js';
export * from './loan-request-filters.js';
export * from './marketplace-api.js';
export * from './marketplace-client.js';
export * from './service-config.js';
export { answerSnippet, isWebPage, shownUrl, splitCredentials } from './shown-text.js';
export { DEFAULT_RESPONSE_LIMITS } from './response-limits.js';
export * from './create-client.js';
export * from './validation.js';
export * from './schemas/index.js';
export * from './pagination.js';
export { DEFAULT_CLOCK_SKEW } from './clock-skew.js';
export { postBounded } from './bounded-post.js';
