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
export { DEFAULT_RESPONSE_LIMITS, RESPONSE_KINDS, responseLimitKey, type ResponseKind, type ResponseLimits } from './response-limits.js';
export * from './create-client.js';
export * from './validation.js';
export * from './schemas/index.js';
export { HttpTransport, parseRetryAfter, type RetrySettings, type RetryClass } from './http-transport.js';
export * from './pagination.js';
export { DEFAULT_CLOCK_SKEW, type ClockSkewSettings } from './clock-skew.js';
export { postBounded, type BoundedAnswer, type BoundedPostOptions } from './bounded-post.js';
