/**
 * A compiled check of recording lines, for reading large recordings fast: Ajv over the JSON Schema
 * generated from the zod schema at first use (so a field added to the zod schema is checked with
 * no further step). zod's safeParse costs about 10 µs a line, several times JSON.parse itself;
 * the compiled check costs a fraction of that.
 *
 * It must accept exactly what zod accepts and the line must read the same without zod's output:
 * - a part the JSON Schema cannot say (a `refine`, a format without a pattern) is checked by zod
 *   itself, at that node only, through the `zodCheck` keyword;
 * - a part whose output differs from its input (a transform, a default, a stripping object, a
 *   trimming string) makes the compiled check unavailable: readers then use zod throughout.
 * A line the check refuses is parsed by zod, whose message is the one reported.
 */
import { _, Ajv2020, type KeywordCxt } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { recordingLineSchema } from './recording-schema.js';

/** True when the parsed JSON of a line is a valid recording line, usable as it is. */
export type LineCheck = (json: unknown) => boolean;

/** zod schema types whose parsed value may differ from the input. */
const OUTPUT_CHANGING = new Set(['transform', 'pipe', 'default', 'prefault', 'catch', 'success', 'codec', 'custom', 'lazy', 'promise', 'function']);

interface ZodInternals {
  _zod: { def: { type: string; catchall?: unknown; checks?: Array<{ _zod: { def: { check: string } } }> } };
}

let compiled: LineCheck | null | undefined;

function build(): LineCheck | null {
  const exact: z.ZodType[] = [];
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
        }
      },
    }) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!usable) return null;
  // Formats are enforced by their patterns (or zodCheck); regexes as zod runs them (no u flag).
  const ajv = new Ajv2020({ strict: false, validateFormats: false, unicodeRegExp: false, allErrors: false });
  // Amounts repeat ("20.00", "5.00"): a verdict on a text or number is remembered (bounded).
  const verdicts = exact.map(() => new Map<unknown, boolean>());
  const zodCheck = (index: number, data: unknown): boolean => {
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
  // A code keyword: the validator calls zodCheck directly. A function keyword (`validate`) would
  // build a context object and the data's path text on every call, which cost as much as the
  // rest of the check together.
  ajv.addKeyword({
    keyword: 'zodCheck',
    schemaType: 'number',
    code(cxt: KeywordCxt) {
      const check = cxt.gen.scopeValue('keyword', { ref: zodCheck });
      cxt.fail(_`!${check}(${cxt.schema as number}, ${cxt.data})`);
    },
  });
  const validate = ajv.compile(schema);
  return (json) => validate(json);
}

/** The compiled check, or undefined when the schema needs zod's own parse (see above). */
export function recordingLineCheck(): LineCheck | undefined {
  if (compiled === undefined) compiled = build();
  return compiled ?? undefined;
}
