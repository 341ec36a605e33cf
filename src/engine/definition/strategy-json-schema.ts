/** The JSON Schema of strategy files, generated from the zod schema (committed as schema/strategy.schema.json). */
import { z } from 'zod';
import { strategyFileSchema } from './strategy-schema.js';

const STRATEGY_SCHEMA_ID = 'https://lendbot.dev/schema/strategy.schema.json';

/** The schema as text, exactly as committed (2-space JSON, trailing newline). */
export function strategyJsonSchemaText(): string {
  // `input`: fields with defaults are optional to write, which is what an editor should say.
  const schema = z.toJSONSchema(strategyFileSchema, { io: 'input', target: 'draft-2020-12' });
  return `${JSON.stringify({ ...schema, $id: STRATEGY_SCHEMA_ID, title: 'lendbot strategy' }, null, 2)}\n`;
}
