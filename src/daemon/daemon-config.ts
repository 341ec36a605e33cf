/**
 * The daemon's configuration: `config/lendbot.yaml`, a short starter (every key documented in
 * config/lendbot.reference.yaml), validated with zod and reported as `file:line:col path:
 * message`, then overridden by the environment (LENDBOT_*), which always wins. Secrets only ever come from the environment.
 */
import { z } from 'zod';
import cron from 'node-cron';
import { loadYamlFile, type CrossFieldRule } from '../config/index.js';
import { riskLimitsSchema } from '../risk/index.js';
import { ConfigurationError } from '../domain/index.js';
import { serviceSectionSchema } from '../service/service-config.js';
import { DEFAULT_MAX_FAILED_POLLS } from './poll-failures.js';
import { DEFAULT_UNKNOWN_OFFER_RESENDS } from './unknown-offer-resends.js';
import { ledgerSectionSchema } from '../money/loss-rates-config.js';
import { OPS_ENV_HELP, operatorConfigSchema } from '../operator/operator-config.js';
import { DEFAULT_SYNCHRONOUS, SYNCHRONOUS_LEVELS } from '../store/synchronous.js';
import { DEFAULT_WARN_AFTER_REFUSALS, DEFAULT_WARN_WINDOW_MS } from '../webhook/refusal-warning.js';
import { DEFAULT_TOKEN_LAYOUT, TOKEN_LAYOUTS } from '../webhook/token-layout.js';
import { WING_CONFIG } from './wing-parts.js';

/** The schedule of a job that never runs on its own. */
const JOB_OFF = 'off';

/** A cron expression, or `off`: the job never runs on its own (it still runs at start where said). */
const cronExpression = z.string().refine((text) => text === JOB_OFF || cron.validate(text), {
  message: 'not a cron expression (e.g. "* * * * *" every minute, "*/5 * * * * *" every 5 seconds) or off',
});

export const daemonConfigSchema = z.strictObject({
  db: z.string().min(1).default('data/lendbot.db').describe('SQLite file (LENDBOT_DB)'),
  dry_run: z.boolean().default(false).describe('decide and record, but never POST an offer (LENDBOT_DRY_RUN)'),
  store: z
    .strictObject({
      synchronous: z
        .enum(SYNCHRONOUS_LEVELS as ['normal', 'full'])
        .default(DEFAULT_SYNCHRONOUS)
        .describe('normal: commits survive a crash of lendbot; full: an OS crash or power cut too, one fsync per commit'),
    })
    .prefault({}),
  log_level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  strategies: z.array(z.string().min(1)).min(1).default(['strategies/balanced.yaml']),
  webhook: z
    .strictObject({
      host: z.string().default('0.0.0.0'),
      port: z.number().int().min(0).max(65535).default(8080),
      path: z.string().regex(/^\//, 'must start with /').default('/webhooks'),
      body_limit_bytes: z.number().int().positive().default(65_536),
      token_layout: z
        .enum(TOKEN_LAYOUTS)
        .default(DEFAULT_TOKEN_LAYOUT)
        .describe(
          'where the event sits in the token: auto reads both; envelope: claims {webhook_uuid, topic, data}; data: claims are the data, uuid and topic beside the token',
        ),
      warn_after: z
        .strictObject({
          refusals: z.number().int().positive().default(DEFAULT_WARN_AFTER_REFUSALS),
          within_minutes: z
            .number()
            .positive()
            .default(DEFAULT_WARN_WINDOW_MS / 60_000),
        })
        .prefault({})
        .describe('validly signed webhooks refused for their shape this often raise a warning (/healthz, lendbot status, a notification)'),
    })
    .prefault({}),
  poll: z
    .strictObject({
      schedule: cronExpression.default('* * * * *'),
      at_start: z.boolean().default(true),
      server_filters: z
        .boolean()
        .default(true)
        .describe("send the list filters the active strategies' risk-level and amount filters allow (false: read the whole list)"),
      failures_before_degraded: z
        .number()
        .int()
        .min(1)
        .default(DEFAULT_MAX_FAILED_POLLS)
        .describe('this many polls failed in a row make /healthz degraded, with the last error as the reason'),
    })
    .prefault({}),
  service: serviceSectionSchema.prefault({}),
  unknown_offers: z
    .strictObject({
      resends: z.number().int().min(0).max(20).default(DEFAULT_UNKNOWN_OFFER_RESENDS.resends),
      first_wait_seconds: z
        .number()
        .positive()
        .default(DEFAULT_UNKNOWN_OFFER_RESENDS.firstWaitMs / 1000),
      max_wait_minutes: z
        .number()
        .positive()
        .default(DEFAULT_UNKNOWN_OFFER_RESENDS.maxWaitMs / 60_000),
    })
    .prefault({})
    .describe(
      'an offer whose outcome is unknown is sent again at most `resends` times, waiting first_wait_seconds, then twice as long each time up to max_wait_minutes',
    ),
  jobs: z
    .strictObject({
      balance_refresh: cronExpression.default('*/5 * * * *'),
      reconcile: cronExpression.default('*/2 * * * *'),
      fund_accepted: cronExpression.default('* * * * *'),
      protections: cronExpression.default('* * * * *'),
      // Retraining's look (src/retrain/): cheap when nothing is due; a rollback is taken up within it.
      retrain: cronExpression.default('* * * * *'),
    })
    .prefault({}),
  risk: riskLimitsSchema.prefault({}),
  ledger: ledgerSectionSchema.prefault({}),
  // notifications: (src/messaging), and every other wing's sections.
  ...WING_CONFIG,
  ops: operatorConfigSchema.prefault({}).describe('the operator listener: the MCP agent connector at /mcp (docs/agent-connector.md)'),
  sandbox: z
    .strictObject({
      seed: z.number().int().default(42),
      speed: z.number().positive().default(86_400),
      arrivals_per_hour: z.number().positive().default(0.25),
      initial_balance: z.number().min(0).default(5000),
    })
    .prefault({}),
});
export type DaemonConfigFile = z.infer<typeof daemonConfigSchema>;

/** The environment variables `lendbot run` reads (shown in its --help). */
export const RUN_ENV_HELP: ReadonlyArray<readonly [string, string]> = [
  ['LENDBOT_WEBHOOK_SECRET', 'verifies webhook tokens (required unless --sandbox)'],
  ['LENDBOT_WEBHOOK_PORT', 'listener port (default 8080)'],
  ['LENDBOT_DB', 'SQLite file (default data/lendbot.db)'],
  ['LENDBOT_POLL', 'poll schedule, a cron expression (default every minute)'],
  ['LENDBOT_DRY_RUN', 'true: never POST offers'],
  ['LENDBOT_LOG_LEVEL', 'trace, debug, info, warn, error'],
  ['LENDBOT_OPS_HOST', 'operator listener address (default 127.0.0.1; 0.0.0.0 in a container)'],
  ...OPS_ENV_HELP,
];

type Env = Record<string, string | undefined>;

const rules: ReadonlyArray<CrossFieldRule<DaemonConfigFile>> = [];

/** Loads the config file (defaults when `path` is undefined) and applies the environment. */
export async function loadDaemonConfig(path: string | undefined, env: Env): Promise<DaemonConfigFile> {
  const file = path === undefined ? daemonConfigSchema.parse({}) : await loadYamlFile(path, daemonConfigSchema, rules);
  return applyEnv(file, env);
}

/** The environment overrides the file. */
export function applyEnv(config: DaemonConfigFile, env: Env): DaemonConfigFile {
  const result = structuredClone(config);
  if (env.LENDBOT_DB?.trim()) result.db = env.LENDBOT_DB.trim();
  if (env.LENDBOT_DRY_RUN?.trim()) result.dry_run = parseBoolean(env.LENDBOT_DRY_RUN, 'LENDBOT_DRY_RUN');
  if (env.LENDBOT_LOG_LEVEL?.trim()) {
    const level = daemonConfigSchema.shape.log_level.safeParse(env.LENDBOT_LOG_LEVEL.trim());
    if (!level.success)
      throw new ConfigurationError(
        `LENDBOT_LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent (got "${env.LENDBOT_LOG_LEVEL}")`,
      );
    result.log_level = level.data;
  }
  if (env.LENDBOT_WEBHOOK_PORT?.trim()) {
    const port = Number(env.LENDBOT_WEBHOOK_PORT);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new ConfigurationError(`LENDBOT_WEBHOOK_PORT must be a port number (got "${env.LENDBOT_WEBHOOK_PORT}")`);
    result.webhook.port = port;
  }
  if (env.LENDBOT_OPS_PORT?.trim()) {
    const port = Number(env.LENDBOT_OPS_PORT);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new ConfigurationError(`LENDBOT_OPS_PORT must be a port number (got "${env.LENDBOT_OPS_PORT}")`);
    result.ops.port = port;
  }
  // A container binds 0.0.0.0 inside and publishes the port on the host's loopback (compose.yaml).
  if (env.LENDBOT_OPS_HOST?.trim()) result.ops.host = env.LENDBOT_OPS_HOST.trim();
  if (env.LENDBOT_POLL?.trim()) {
    if (!cron.validate(env.LENDBOT_POLL.trim()))
      throw new ConfigurationError(`LENDBOT_POLL is not a cron expression (got "${env.LENDBOT_POLL}")`);
    result.poll.schedule = env.LENDBOT_POLL.trim();
  }
  return result;
}

function parseBoolean(text: string, name: string): boolean {
  const value = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigurationError(`${name} must be true or false (got "${text}")`);
}
