/** The JSON Schema of recording lines, generated from the zod schema (committed as schema/recording.schema.json). */
import { z } from 'zod';
import { recordingLineSchema } from './recording-schema.js';

const RECORDING_SCHEMA_ID = 'https://lendbot.dev/schema/recording.schema.json';

/** The schema of ONE line of a recording, as text exactly as committed (2-space JSON, trailing newline). */
export function recordingJsonSchemaText(): string {
  const schema = z.toJSONSchema(recordingLineSchema, { io: 'input', target: 'draft-2020-12' });
  return `${JSON.stringify({ ...schema, $id: RECORDING_SCHEMA_ID, title: 'lendbot recording line (JSON Lines: one per line)' }, null, 2)}\n`;
}
