/**
 * The JSON Schema the compiled recording line check (line-check.ts) validates against: zod's own
 * schema of a recording line as JSON Schema, with each node the JSON Schema cannot say marked
 * for zod (`zodCheck`), nullable nodes merged and large sections split into functions of their
 * own. Read line-check.ts first: it says when the check is used and why it equals zod.
 *
 * A part the JSON Schema cannot say (a `refine`, a format without a pattern) is checked by zod
 * itself, at that node only, through the `zodCheck` keyword; a part whose output differs from its
 * input (a transform, a default, a stripping object, a trimming string) makes the compiled check
 * unavailable: readers then use zod throughout.
 *
 * A node whose only checks beyond the JSON Schema are synchronous refinements (`.refine(fn)`,
 * such as decimal amounts) is checked by calling those functions directly once Ajv has checked
 * the rest of the node: zod runs a refinement exactly when the node's other checks passed, and
 * the node is valid exactly when every one returns truthy. Other nodes go through zod's own
 * `safeParse`, whose verdict on a text or number is remembered.
 *
 * A nullable schema comes out of zod as `anyOf: [{type: T, ...}, {type: 'null'}]`; when the first
 * branch holds only keywords that apply to values of type T alone, it reads the same as
 * `{type: [T, 'null'], ...}`, which Ajv checks without trying branches (half the check's time).
 */
import { z } from 'zod';
import { recordingLineSchema } from './recording-schema.js';

/** zod schema types whose parsed value may differ from the input. */
const OUTPUT_CHANGING = new Set([
  'transform',
  'pipe',
  'default',
  'prefault',
  'catch',
  'success',
  'codec',
  'custom',
  'lazy',
  'promise',
  'function',
]);

interface ZodCheckInternals {
  _zod: { def: { check: string; fn?: (input: unknown) => unknown; when?: unknown } };
}

interface ZodInternals {
  _zod: { def: { type: string; catchall?: unknown; checks?: ZodCheckInternals[] } };
}

/** How one node the JSON Schema cannot fully say is checked (see the file's comment). */
type NodeCheck = (data: unknown) => boolean;

/**
 * The node's refinements as one function, when they are all it adds to its JSON Schema (every
 * check is a refinement or one the schema states); undefined otherwise.
 */
function refinementsOf(checks: readonly ZodCheckInternals[], json: Record<string, unknown>): NodeCheck | undefined {
  if (json.format !== undefined && json.pattern === undefined) return undefined;
  const refinements: Array<(input: unknown) => unknown> = [];
  for (const check of checks) {
    const { def } = check._zod;
    if (def.check !== 'custom') continue;
    if (typeof def.fn !== 'function' || def.when !== undefined) return undefined;
    refinements.push(def.fn);
  }
  return (data) => {
    for (const refinement of refinements) {
      const verdict = refinement(data);
      // An async refinement: zod's synchronous parse refuses it, and so does the check.
      if (verdict instanceof Promise || !verdict) return false;
    }
    return true;
  };
}

/** Keywords that constrain only values of one JSON type (and pass any other). */
const TYPE_SPECIFIC = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
]);

/** `anyOf: [{type: T, ...}, {type: 'null'}]` as `{type: [T, 'null'], ...}` where that reads the same. */
function mergeNullable(node: Record<string, unknown>): void {
  const branches = node.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return;
  const [value, nothing] = branches as Array<Record<string, unknown>>;
  if (!value || !nothing || Object.keys(nothing).length !== 1 || nothing.type !== 'null') return;
  if (typeof value.type !== 'string' || value.type === 'null') return;
  if (!Object.keys(value).every((key) => key === 'type' || TYPE_SPECIFIC.has(key))) return;
  const others = Object.keys(node).filter((key) => key !== 'anyOf');
  if (others.some((key) => key in value || key === 'type')) return;
  delete node.anyOf;
  Object.assign(node, value, { type: [value.type, 'null'] });
}

/** Applies mergeNullable to every node of a JSON Schema, innermost first. */
function mergeNullables(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) mergeNullables(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  for (const child of Object.values(node)) mergeNullables(child);
  mergeNullable(node as Record<string, unknown>);
}

/** A sub-schema longer than this (as JSON text) gets a validating function of its own. */
export const OWN_FUNCTION_CHARS = 1_500;

/**
 * Moves every large property schema (innermost first) into `$defs`, referenced by `$ref`: with
 * `inlineRefs: false` Ajv compiles each into a function of its own. Inlined, a recording line's
 * check was one function of 61 KB of bytecode, over what V8's optimising compiler takes (60 KB),
 * so it only ever ran unoptimised, about three times slower. A `$ref` alone in a node checks
 * what the node it replaces checked.
 */
export function splitLargeProperties(schema: Record<string, unknown>): void {
  const defs = (schema.$defs ?? {}) as Record<string, unknown>;
  let next = 0;
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    for (const [keyword, value] of Object.entries(record)) {
      if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) value.forEach(visit);
      else if (SCHEMA_MAPS.has(keyword) && typeof value === 'object' && value !== null) Object.values(value).forEach(visit);
      else if (ONE_SCHEMA.has(keyword)) visit(value);
    }
    const properties = record.properties;
    if (typeof properties !== 'object' || properties === null) return;
    for (const [name, property] of Object.entries(properties)) {
      if (JSON.stringify(property).length <= OWN_FUNCTION_CHARS) continue;
      const key = `split${next++}`;
      defs[key] = property;
      (properties as Record<string, unknown>)[name] = { $ref: `#/$defs/${key}` };
    }
  };
  visit(schema);
  if (next > 0) schema.$defs = defs;
}

/** Keywords whose value is a schema, a list of schemas, a map of names to schemas. */
const ONE_SCHEMA = new Set([
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** The schema to compile, and zod's check of each node marked `zodCheck: index`. */
export interface LineCheckSchema {
  schema: Record<string, unknown>;
  /** zodCheck(index, data): zod's verdict on the node marked with that index. */
  zodCheck: (index: number, data: unknown) => boolean;
}

/** The recording line's schema, ready to compile; null when zod's output may differ from its input. */
export function lineCheckSchema(): LineCheckSchema | null {
  const exact: z.ZodType[] = [];
  const direct: Array<NodeCheck | undefined> = [];
  let usable = true;
  let schema: Record<string, unknown>;
  try {
    schema = z.toJSONSchema(recordingLineSchema, {
      io: 'input',
      target: 'draft-2020-12',
      override: (ctx) => {
        const { def } = (ctx.zodSchema as unknown as ZodInternals)._zod;
        const checks = (def.checks ?? []).map((check) => check._zod.def.check);
        if (OUTPUT_CHANGING.has(def.type) || checks.includes('overwrite')) usable = false;
        // z.object strips unknown keys; looseObject and strictObject keep the input as it is.
        if (def.type === 'object' && def.catchall === undefined) usable = false;
        const json = ctx.jsonSchema as Record<string, unknown>;
        if (checks.includes('custom') || (json.format !== undefined && json.pattern === undefined)) {
          json.zodCheck = exact.length;
          exact.push(ctx.zodSchema as unknown as z.ZodType);
          direct.push(refinementsOf(def.checks ?? [], json));
        }
      },
    }) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!usable) return null;
  mergeNullables(schema);
  splitLargeProperties(schema);
  // Texts and numbers repeat: zod's verdict on one is remembered (bounded).
  const verdicts = exact.map(() => new Map<unknown, boolean>());
  const zodCheck = (index: number, data: unknown): boolean => {
    const refinements = direct[index];
    if (refinements !== undefined) return refinements(data);
    const memo = verdicts[index];
    const primitive = typeof data === 'string' || typeof data === 'number';
    const known = primitive ? memo?.get(data) : undefined;
    if (known !== undefined) return known;
    const ok = exact[index]?.safeParse(data).success === true;
    if (primitive && memo) {
      if (memo.size >= 10_000) memo.clear();
      memo.set(data, ok);
    }
    return ok;
  };
  return { schema, zodCheck };
}
