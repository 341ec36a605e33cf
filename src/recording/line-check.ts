/**
 * FAST PATH of src/recording/recording-schema.ts:recordingLineSchema; equivalence:
 * test/recording/recording-reader.test.ts; change both or neither.
 *
 * A compiled check of recording lines, for reading large recordings fast: Ajv over the JSON Schema
 * made from the zod schema (line-check-schema.ts), so a field added to the zod schema is checked
 * with no further step. zod's safeParse costs about 10 µs a line, several times JSON.parse itself;
 * the compiled check costs a fraction of that. It must accept exactly what zod accepts and the line
 * must read the same without zod's output; a line the check refuses is parsed by zod, whose
 * message is the one reported.
 *
 * The check's code is written ahead of time (line-check.generated.ts, by
 * scripts/generate-line-check.ts) from the same schema: compiling it at each start cost about
 * 150 ms of every backtest. It is used only when the schema it was made from is the schema of now
 * (the same SHA-256); otherwise Ajv compiles it here, as before, and
 * test/recording/line-check-generated.test.ts fails until the script is run.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { compileLineCheck, type LineCheck } from './line-check-ajv.js';
import { LINE_CHECK_SCHEMA_SHA256, LINE_CHECK_SOURCE } from './line-check.generated.js';
import { lineCheckSchema, type LineCheckSchema } from './line-check-schema.js';

export type { LineCheck } from './line-check-ajv.js';

/** Where the check in use came from: the committed code, Ajv at run time, or none (zod reads every line). */
export type LineCheckOrigin = 'written' | 'compiled' | 'none';

/** The SHA-256 of the prepared schema, which names the schema the committed code was written from. */
export function lineCheckSchemaHash(prepared: LineCheckSchema): string {
  return createHash('sha256').update(JSON.stringify(prepared.schema)).digest('hex');
}

/** The committed code as a function of the schema's zodCheck. */
function writtenCheck(prepared: LineCheckSchema): LineCheck {
  // Ajv's own way to run compiled code (it too compiles with new Function); `require` serves
  // the small runtime helpers the code may name (ajv/dist/runtime/...).
  const make = new Function('zodCheck', 'require', LINE_CHECK_SOURCE) as (
    zodCheck: LineCheckSchema['zodCheck'],
    require: NodeJS.Require,
  ) => (json: unknown) => boolean;
  const validate = make(prepared.zodCheck, createRequire(import.meta.url));
  return (json) => validate(json);
}

interface BuiltCheck {
  check: LineCheck | undefined;
  origin: LineCheckOrigin;
}

function build(): BuiltCheck {
  const prepared = lineCheckSchema();
  if (prepared === null) return { check: undefined, origin: 'none' };
  if (lineCheckSchemaHash(prepared) === LINE_CHECK_SCHEMA_SHA256) return { check: writtenCheck(prepared), origin: 'written' };
  return { check: compileLineCheck(prepared), origin: 'compiled' };
}

/** The one check of the process, built at first use. */
let builtCheck: BuiltCheck | undefined;

function built(): BuiltCheck {
  if (builtCheck === undefined) builtCheck = build();
  return builtCheck;
}

/** The compiled check, or undefined when the schema needs zod's own parse (see line-check-schema.ts). */
export function recordingLineCheck(): LineCheck | undefined {
  return built().check;
}

/** Where the check in use came from (for tests and the performance notes). */
export function recordingLineCheckOrigin(): LineCheckOrigin {
  return built().origin;
}
