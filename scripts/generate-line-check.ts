/**
 * Writes src/recording/line-check.generated.ts: the recording line check's code, compiled by Ajv
 * ahead of time from the zod schema of a recording line (src/recording/line-check.ts says why).
 * Run it after changing src/recording/recording-schema.ts or the resources' schemas:
 *   node --import tsx scripts/generate-line-check.ts
 * test/recording/line-check-generated.test.ts fails when the committed file is stale.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { lineCheckGeneratedText } from './line-check-source.js';

const target = fileURLToPath(new URL('../src/recording/line-check.generated.ts', import.meta.url));
const text = lineCheckGeneratedText();
if (text === null) {
  console.error('the recording schema changes what it reads (a transform or a stripping object): zod reads every line, no check to write');
  process.exit(1);
}
await writeFile(target, text);
console.log(`wrote ${target}`);
