/**
 * FAST PATH of src/recording/recording-schema.ts:recordingLineSchema; equivalence:
 * test/recording/line-check-equivalence.test.ts; change both or neither.
 *
 * The recording line check for reading large recordings fast: Ajv's code compiled ahead of time
 * (line-check.generated.ts, by scripts/generate-line-check.ts) from the JSON Schema made from the
 * zod schema (line-check-schema.ts), so a field added to the zod schema is checked after one run
 * of the script. zod's safeParse costs about 25 µs a sandbox line the first time, several times
 * JSON.parse itself; the check about a third of that. It says only yes or no: it must accept
 * exactly what zod accepts, and an accepted line must read the same without zod's output. A
 * line it refuses is read by zod, whose message is the one reported (recording-io.ts,
 * parseRecordingLine, the one way to read a line).
 *
 * The written code is used only when the schema it was made from is the schema of now (the same
 * SHA-256); otherwise there is no fast check, zod reads every line (correct, slower) and
 * test/recording/line-check-generated.test.ts fails until the script is run.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { LINE_CHECK_SCHEMA_SHA256, LINE_CHECK_SOURCE } from './line-check.generated.js';
import { lineCheckSchema, type LineCheckSchema } from './line-check-schema.js';

/** A check: true when the parsed JSON of a line is a valid recording line. */
export type LineCheck = (json: unknown) => boolean;

/** The SHA-256 of the prepared schema, which names the schema the written code was made from. */
export function lineCheckSchemaHash(prepared: LineCheckSchema): string {
  return createHash('sha256').update(JSON.stringify(prepared.schema)).digest('hex');
}

/** The written code as a check, or undefined when it was made from another schema than `prepared`. */
export function writtenLineCheck(prepared: LineCheckSchema, written: { sha256: string; source: string }): LineCheck | undefined {
  if (lineCheckSchemaHash(prepared) !== written.sha256) return undefined;
  // Ajv's own way to run compiled code (it too compiles with new Function); `require` serves
  // the small runtime helpers the code may name (ajv/dist/runtime/...).
  const make = new Function('zodCheck', 'require', written.source) as (
    zodCheck: LineCheckSchema['zodCheck'],
    require: NodeJS.Require,
  ) => (json: unknown) => boolean;
  const validate = make(prepared.zodCheck, createRequire(import.meta.url));
  return (json) => validate(json);
}

/** The one check of the process, built at first use; null once built without one. */
let builtCheck: LineCheck | null | undefined;

/** The fast check, or undefined when zod reads every line (a stale written check, see above). */
export function recordingLineCheck(): LineCheck | undefined {
  if (builtCheck === undefined) {
    const prepared = lineCheckSchema();
    builtCheck = (prepared && writtenLineCheck(prepared, { sha256: LINE_CHECK_SCHEMA_SHA256, source: LINE_CHECK_SOURCE })) ?? null;
  }
  return builtCheck ?? undefined;
}
