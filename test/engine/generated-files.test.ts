import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { strategyJsonSchemaText } from '../../src/engine/definition/strategy-json-schema.js';
import { featuresMarkdown } from '../../src/engine/features/feature-docs.js';
import { FEATURE_NAMES } from '../../src/engine/index.js';

const committed = new URL('../../schema/strategy.schema.json', import.meta.url);

describe('schema/strategy.schema.json', () => {
  it('matches the zod schema (regenerate: node --import tsx scripts/generate-schema.ts)', async () => {
    expect(await readFile(committed, 'utf8')).toBe(strategyJsonSchemaText());
  });

  it('lists the feature names so editors complete them', async () => {
    const text = await readFile(committed, 'utf8');
    for (const name of FEATURE_NAMES) expect(text).toContain(`"${name}"`);
  });

  it('has docs/features.md in step with the catalogue', async () => {
    expect(await readFile(new URL('../../docs/features.md', import.meta.url), 'utf8')).toBe(featuresMarkdown());
  });

  it('is named by the example strategies', async () => {
    for (const name of ['balanced', 'conservative', 'cashflow']) {
      const text = await readFile(new URL(`../../strategies/${name}.yaml`, import.meta.url), 'utf8');
      expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schema/strategy.schema.json');
    }
  });
});
