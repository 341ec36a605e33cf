/**
 * Writes schema/strategy.schema.json from the zod schema of strategy files. Run it after
 * changing src/engine/definition/strategy-schema.ts or the feature catalogue:
 *   node --import tsx scripts/generate-schema.ts
 * test/engine/strategy-json-schema.test.ts fails when the committed file is stale.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { strategyJsonSchemaText } from '../src/engine/definition/strategy-json-schema.js';

const target = fileURLToPath(new URL('../schema/strategy.schema.json', import.meta.url));
await writeFile(target, strategyJsonSchemaText());
console.log(`wrote ${target}`);
