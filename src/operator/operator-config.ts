/**
 * The `ops:` section of the daemon's configuration: where the operator listener listens, which
 * named tokens may use it, whether this machine may read without one, and where reports are. Token values never live in the file: each named token names the
 * environment variable holding it, so one agent's access is revoked by removing its entry (or
 * unsetting its variable) and restarting, without touching the others.
 */
import { z } from 'zod';

export const DEFAULT_OPS_HOST = '127.0.0.1';
export const DEFAULT_OPS_PORT = 8081;

const tokenName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'lower-case letters, digits, - and _ (e.g. claude-desktop)')
  .refine((name) => name !== 'operator' && name !== 'sandbox', { message: 'operator and sandbox are reserved names' });

export const operatorConfigSchema = z.strictObject({
  host: z.string().min(1).default(DEFAULT_OPS_HOST).describe('loopback by default: the operator surface is not for the internet'),
  port: z.number().int().min(0).max(65535).default(DEFAULT_OPS_PORT).describe('LENDBOT_OPS_PORT overrides'),
  tokens: z
    .array(
      z.strictObject({
        name: tokenName.describe('shown in the decisions an agent records ("agent:NAME")'),
        env: z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name, e.g. LENDBOT_TOKEN_CLAUDE').describe('the variable holding the token'),
      }),
    )
    .default([])
    .describe('named bearer tokens besides LENDBOT_OPERATOR_TOKEN'),
  open_on_loopback: z
    .boolean()
    .default(true)
    .describe('true: the dashboard and GET /api/... answer callers on this machine without a token (changes always need one)'),
  reports_dir: z.string().min(1).default('reports').describe('the folder of backtest HTML reports the dashboard lists (GET /api/reports)'),
});
export type OperatorConfig = z.infer<typeof operatorConfigSchema>;

/** The variables the operator listener reads (shown in --help). */
export const OPS_ENV_HELP: ReadonlyArray<readonly [string, string]> = [
  ['LENDBOT_OPERATOR_TOKEN', 'bearer token of the operator listener (dashboard, /api, /metrics, /mcp); its callers are named "operator"'],
  ['LENDBOT_OPS_PORT', `operator listener port (default ${DEFAULT_OPS_PORT})`],
];
