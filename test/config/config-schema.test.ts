/**
 * schema/config.schema.json is generated from the daemon's config schema and committed, so
 * editors check config/lendbot.yaml and config/lendbot.reference.yaml; it must not drift from the zod schema. Regenerate with
 *   node --import tsx scripts/generate-schema.ts
 */
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configJsonSchemaText } from '../../src/daemon/daemon-config-json-schema.js';

const committed = new URL('../../schema/config.schema.json', import.meta.url);
const shipped = [new URL('../../config/lendbot.yaml', import.meta.url), new URL('../../config/lendbot.reference.yaml', import.meta.url)];

function validator(schemaText: string) {
  return new Ajv2020({ strict: false, allErrors: true }).compile(JSON.parse(schemaText) as object);
}

describe('schema/config.schema.json', () => {
  it('matches the zod schema of the configuration (regenerate: node --import tsx scripts/generate-schema.ts)', async () => {
    expect(await readFile(committed, 'utf8')).toBe(configJsonSchemaText());
  });

  it('is named on the first line of the starter config/lendbot.yaml and of the reference, which it accepts', async () => {
    const validate = validator(await readFile(committed, 'utf8'));
    for (const file of shipped) {
      const text = await readFile(file, 'utf8');
      expect(text.split('\n')[0], file.pathname).toBe('# yaml-language-server: $schema=../schema/config.schema.json');
      expect(validate(parse(text) ?? {}), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it('refuses what the daemon refuses: an unknown key, a port out of range', async () => {
    const validate = validator(await readFile(committed, 'utf8'));
    expect(validate({ webhok: {} })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'additionalProperties', params: { additionalProperty: 'webhok' } });
    expect(validate({ webhook: { port: 70_000 } })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: '/webhook/port', keyword: 'maximum' });
  });
});
