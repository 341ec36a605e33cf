/**
 * Writes schema/recording.schema.json from the zod schema of recording lines. Run it after
 * changing src/recording/recording-schema.ts or the service's resource schemas:
 *   node --import tsx scripts/generate-recording-schema.ts
 * test/recording/recording-json-schema.test.ts fails when the committed file is stale.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { recordingJsonSchemaText } from '../src/recording/index.js';

const target = fileURLToPath(new URL('../schema/recording.schema.json', import.meta.url));
await writeFile(target, recordingJsonSchemaText());
console.log(`wrote ${target}`);
