/**
 * The `ops:` section of the daemon's configuration: where the operator listener listens, which
 * named tokens may use it (and what each may place without a person: its allowance), how long an
 * agent's proposal waits, whether this machine may read without a token, and where reports are.
 * Token values never live in the file: each named token names the environment variable holding
 * it, so one agent's access is revoked by removing its entry (or unsetting its variable) and
 * restarting, without touching the others.
 */
import { z } from 'zod';
import { offerAllowanceSchema } from './allowance.js';

const DEFAULT_OPS_HOST = '127.0.0.1';
const DEFAULT_OPS_PORT = 8081;

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
        env: z
          .string()
          .regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name, e.g. LENDBOT_TOKEN_CLAUDE')
          .describe('the variable holding the token'),
        allowance: offerAllowanceSchema
          .optional()
          .describe("offers this token's agent may place without a person (default none: every offer it asks for waits for approval)"),
      }),
    )
    .superRefine((tokens, context) => {
      // Two entries with one name would be one agent in the decisions and the allowances; two
      // with one variable would be one secret under two names.
      for (const key of ['name', 'env'] as const) {
        const first = new Map<string, number>();
        tokens.forEach((token, index) => {
          const earlier = first.get(token[key]);
          if (earlier === undefined) first.set(token[key], index);
          else
            context.addIssue({
              code: 'custom',
              path: [index, key],
              message: `${token[key]} is already the ${key} of tokens[${earlier}]; each token needs its own ${key}`,
            });
        });
      }
    })
    // prefault: the default goes through the entries' schema (an allowance is transformed), and
    // the JSON Schema still shows it.
    .prefault([])
    .describe('named bearer tokens besides LENDBOT_OPERATOR_TOKEN'),
  proposal_expiry_minutes: z
    .number()
    .positive()
    .max(7 * 24 * 60)
    .default(30)
    .describe("how long an agent's offer beyond its allowance waits for a person's approval (real minutes)"),
  public_url: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      "the dashboard's address as people open it (a proxy, a tunnel), for the links in notifications and agents' answers; default the listener's own",
    ),
  open_on_loopback: z
    .boolean()
    .default(true)
    .describe('true: the dashboard and GET /api/... answer callers on this machine without a token (changes always need one)'),
  mcp_sessions_per_token: z
    .number()
    .int()
    .min(1)
    .max(32)
    .default(8)
    .describe('the most MCP sessions one token may hold at once (64 in all; the operator token keeps this many for itself)'),
  trusted_proxies: z
    .array(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], { error: 'an IP address or a CIDR range, e.g. 127.0.0.1 or 10.0.0.0/8' }))
    .default([])
    .describe(
      'reverse proxies in front of the listener (addresses or CIDR ranges): their X-Forwarded-For names the client the wrong-token throttle counts; none by default',
    ),
  reports_dir: z.string().min(1).default('reports').describe('the folder of backtest HTML reports the dashboard lists (GET /api/reports)'),
});
export type OperatorConfig = z.infer<typeof operatorConfigSchema>;

/** The variables the operator listener reads (shown in --help). */
export const OPS_ENV_HELP: ReadonlyArray<readonly [string, string]> = [
  ['LENDBOT_OPERATOR_TOKEN', 'bearer token of the operator listener (dashboard, /api, /metrics, /mcp); its callers are named "operator"'],
  ['LENDBOT_OPS_PORT', `operator listener port (default ${DEFAULT_OPS_PORT})`],
];
