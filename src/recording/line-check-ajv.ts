/**
 * Ajv's compiler for the recording line check, used two ways with one set of options:
 * - `lineCheckSource` writes the check's code ahead of time (scripts/generate-line-check.ts),
 *   committed as line-check.generated.ts, so a backtest does not load and run Ajv's compiler
 *   (about 150 ms of every run's start);
 * - `compileLineCheck` compiles it at run time, when the committed code was made from another
 *   schema (a developer changed the schema and has not run the script yet; a test says so).
 * Ajv is loaded with require only here, so a run that uses the committed code never loads it.
 */
import { createRequire } from 'node:module';
import type { Ajv2020 as AjvClass, KeywordCxt } from 'ajv/dist/2020.js';
import type { LineCheckSchema } from './line-check-schema.js';

/** A compiled check: true when the parsed JSON of a line is a valid recording line. */
export type LineCheck = (json: unknown) => boolean;

const requireHere = createRequire(import.meta.url);

/** An Ajv set up as the check needs it, with the `zodCheck` keyword calling `zodCheck`. */
function lineCheckAjv(zodCheck: LineCheckSchema['zodCheck'], source: boolean): AjvClass {
  const ajvModule = requireHere('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // Formats are enforced by their patterns (or zodCheck); regexes as zod runs them (no u flag).
  const ajv = new ajvModule.Ajv2020({
    strict: false,
    validateFormats: false,
    unicodeRegExp: false,
    allErrors: false,
    inlineRefs: false,
    code: { source },
    // The check only says yes or no: a refused line is parsed by zod, whose message is reported.
    messages: false,
  });
  const { _ } = ajvModule;
  // A code keyword: the validator calls zodCheck directly. A function keyword (`validate`) would
  // build a context object and the data's path text on every call, which cost as much as the
  // rest of the check together. In written-out code the function is the free name `zodCheck`.
  ajv.addKeyword({
    keyword: 'zodCheck',
    schemaType: 'number',
    code(cxt: KeywordCxt) {
      const check = cxt.gen.scopeValue('keyword', { ref: zodCheck, code: _`zodCheck` });
      cxt.fail(_`!${check}(${cxt.schema as number}, ${cxt.data})`);
    },
  });
  return ajv;
}

/** The check compiled now, by Ajv. */
export function compileLineCheck(prepared: LineCheckSchema): LineCheck {
  const validate = lineCheckAjv(prepared.zodCheck, false).compile(prepared.schema);
  return (json) => validate(json);
}

/**
 * The check's code as text: the body of a function of `zodCheck` and `require` (Ajv's
 * written-out CommonJS module, whose export is the validating function), for `new Function`.
 */
export function lineCheckSource(prepared: LineCheckSchema): string {
  const ajv = lineCheckAjv(prepared.zodCheck, true);
  const validate = ajv.compile(prepared.schema);
  const standalone = requireHere('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js');
  const code = standalone.default(ajv, validate);
  return `const module = { exports: {} };\n${code}\nreturn module.exports;`;
}
