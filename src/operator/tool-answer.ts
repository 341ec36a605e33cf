/** A tool's answer: a short text for the model and the same facts as structured content. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function answer(text: string, structured: Record<string, unknown>, isError = false): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured, ...(isError ? { isError: true } : {}) };
}
