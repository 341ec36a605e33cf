import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { recordingJsonSchemaText } from '../../src/recording/index.js';

describe('schema/recording.schema.json', () => {
  it('matches the zod schema (regenerate: node --import tsx scripts/generate-recording-schema.ts)', async () => {
    expect(await readFile(new URL('../../schema/recording.schema.json', import.meta.url), 'utf8')).toBe(recordingJsonSchemaText());
  });

  it('names every outcome status and keeps unknown fields', async () => {
    const schema = JSON.parse(await readFile(new URL('../../schema/recording.schema.json', import.meta.url), 'utf8')) as {
      required: string[];
      additionalProperties: unknown;
      properties: Record<string, unknown>;
    };
    expect(schema.required).toEqual(['v', 'seen_at', 'loan_request']);
    expect(schema.additionalProperties).not.toBe(false);
    expect(JSON.stringify(schema.properties.outcome)).toContain('"unfunded"');
  });
});
