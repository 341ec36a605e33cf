// What the client checks on the wire beyond the resources' shapes (src/domain/resources/): the
// pagination envelope and the plausibility rules.
export * from './page-envelope.js';
export * from './plausibility.js';
