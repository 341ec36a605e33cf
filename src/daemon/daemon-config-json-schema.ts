/**
 * The JSON Schema of config/lendbot.yaml, generated from the zod schema of the daemon's
 * configuration (committed as schema/config.schema.json, written by scripts/generate-schema.ts),
 * so editors complete and check the file; config/lendbot.yaml names it on its first line.
 */
import { z } from 'zod';
import { daemonConfigSchema } from './daemon-config.js';

const CONFIG_SCHEMA_ID = 'https://lendbot.dev/schema/config.schema.json';

/** The schema as text, exactly as committed (2-space JSON, trailing newline). */
export function configJsonSchemaText(): string {
  // `input`: fields with defaults are optional to write, which is what an editor should say.
  const schema = z.toJSONSchema(daemonConfigSchema, { io: 'input', target: 'draft-2020-12' });
  return `${JSON.stringify({ ...schema, $id: CONFIG_SCHEMA_ID, title: 'lendbot configuration' }, null, 2)}\n`;
}
