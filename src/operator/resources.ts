/**
 * The connector's resources: the active strategies as their YAML files, and the effective
 * configuration with anything secret removed (secrets come from the environment and are never
 * in it, but a notification URL may carry a token, so such keys are removed wherever they are).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { stringify } from 'yaml';
import type { AgentContext } from './agent-context.js';

const STRATEGIES_URI = 'lendbot://strategies';
const CONFIG_URI = 'lendbot://config';

/** Keys whose values are never shown, at any depth (compared without case). */
const SECRET_KEY = /^(url|secret|secret_key|password|api_key|apikey|token|webhook_secret|authorization)$/i;
export const REMOVED = '[removed]';

/** A copy of the configuration without secret values. */
export function withoutSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, SECRET_KEY.test(key) ? REMOVED : withoutSecrets(item, depth + 1)]),
  );
}

export function registerResources(server: McpServer, context: AgentContext): void {
  server.registerResource(
    'strategies',
    STRATEGIES_URI,
    { title: 'Active strategies', description: 'The strategy files in use, in priority order (YAML)', mimeType: 'application/yaml' },
    async (uri) => {
      const files = context.strategyFiles();
      if (files === undefined) {
        const names = context.strategies().map((strategy) => strategy.name);
        return {
          contents: [{ uri: uri.href, mimeType: 'text/plain', text: `strategies compiled in process (no files): ${names.join(', ')}\n` }],
        };
      }
      const contents = await Promise.all(
        files.map(async (file) => ({
          uri: `${STRATEGIES_URI}/${encodeURIComponent(basename(file))}`,
          mimeType: 'application/yaml',
          text: await readFile(file, 'utf8'),
        })),
      );
      return { contents };
    },
  );
  server.registerResource(
    'config',
    CONFIG_URI,
    {
      title: 'Effective configuration',
      description: 'The configuration in force (file, defaults and environment), secrets removed (YAML)',
      mimeType: 'application/yaml',
    },
    // The risk limits as in force now: hot reload may have changed them since the start.
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/yaml',
          text: stringify(withoutSecrets({ ...(context.config as object), risk: context.limits() })),
        },
      ],
    }),
  );
}
