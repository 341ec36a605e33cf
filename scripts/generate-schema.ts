/**
 * Writes the files generated from code: schema/strategy.schema.json (from the zod schema of
 * strategy files), schema/config.schema.json (from the zod schema of config/lendbot.yaml) and
 * docs/features.md (from the feature catalogue). Run it after changing any of them:
 *   node --import tsx scripts/generate-schema.ts
 * test/engine/generated-files.test.ts and test/config/config-schema.test.ts fail when a
 * committed file is stale.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { configJsonSchemaText } from '../src/daemon/daemon-config-json-schema.js';
import { strategyJsonSchemaText } from '../src/engine/definition/strategy-json-schema.js';
import { featuresMarkdown } from '../src/engine/features/feature-docs.js';

const outputs: Array<[string, string]> = [
  ['../schema/strategy.schema.json', strategyJsonSchemaText()],
  ['../schema/config.schema.json', configJsonSchemaText()],
  ['../docs/features.md', featuresMarkdown()],
];
for (const [relative, text] of outputs) {
  const target = fileURLToPath(new URL(relative, import.meta.url));
  await writeFile(target, text);
  console.log(`wrote ${target}`);
}
