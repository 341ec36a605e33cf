/**
 * The recording line check is compiled from the schema with every large section as a function of
 * its own (line-check.ts, splitLargeProperties): inlined, the check was one function too large for
 * V8's optimising compiler, and ran about three times slower. The verdicts are recording-reader's
 * test; this one checks the split itself.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OWN_FUNCTION_CHARS, splitLargeProperties } from '../../src/recording/line-check-schema.js';
import { recordingLineSchema } from '../../src/recording/recording-schema.js';

type Node = Record<string, unknown>;

/** Every `properties` entry of a schema, at any depth, with its path. */
function propertiesOf(node: unknown, path = ''): Array<[string, unknown]> {
  if (typeof node !== 'object' || node === null) return [];
  const found: Array<[string, unknown]> = [];
  for (const [key, child] of Object.entries(node)) {
    if (key === 'properties' && typeof child === 'object' && child !== null) {
      for (const [name, property] of Object.entries(child))
        found.push([`${path}/${name}`, property], ...propertiesOf(property, `${path}/${name}`));
    } else found.push(...propertiesOf(child, `${path}/${key}`));
  }
  return found;
}

describe('the recording check, split into functions', () => {
  const schema = z.toJSONSchema(recordingLineSchema, { io: 'input', target: 'draft-2020-12' }) as Node;

  it('leaves no large property schema inline, each behind a $ref to $defs', () => {
    splitLargeProperties(schema);
    const defs = schema.$defs as Node;
    expect(Object.keys(defs).length).toBeGreaterThan(1);
    const properties = (schema.properties ?? {}) as Node;
    for (const name of ['loan_request']) expect(properties[name]).toEqual({ $ref: expect.stringMatching(/^#\/\$defs\//) });
    for (const [path, property] of [...propertiesOf(schema.properties), ...Object.values(defs).flatMap((def) => propertiesOf(def))]) {
      const ref = (property as Node).$ref;
      if (typeof ref === 'string') expect(defs[ref.replace('#/$defs/', '')], path).toBeDefined();
      else expect(JSON.stringify(property).length, path).toBeLessThanOrEqual(OWN_FUNCTION_CHARS);
    }
  });
});
