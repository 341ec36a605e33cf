/** `lendbot run`: the daemon. */
import type { Command } from 'commander';
import { createDaemon } from '../../../daemon/daemon.js';
import { RUN_ENV_HELP } from '../../../daemon/daemon-config.js';
import { installShutdown } from '../../../daemon/shutdown.js';
import { createLogger } from '../../../log/logger.js';
import { ConfigurationError } from '../../../domain/index.js';
import { SERVICE_ENV_HELP } from '../../../service/index.js';
import type { CliIo } from '../../cli-io.js';
import { envHelp } from '../../env-help.js';
import { daemonConfigWithFlags, repeated, type DaemonConfigFlags } from '../../daemon-config-flags.js';
import { DEFAULT_CONFIG_FILE } from '../../default-config-file.js';
import { limitDaemonHeapGrowth } from './daemon-heap.js';
import { rememberDatabaseBeforeStart } from './failed-start-database.js';
import { prepareSandboxRun } from './sandbox-run.js';

interface RunOptions extends DaemonConfigFlags {
  sandbox?: boolean;
  switchDbMode?: boolean;
}

export function registerRunCommand(program: Command, io: CliIo): void {
  program
    .command('run')
    .description('run the daemon: hear loan requests, decide, guard, offer, record')
    .option('--config <file>', `configuration file (default ${DEFAULT_CONFIG_FILE} when it exists)`)
    .option('--strategy <file>', 'strategy file; repeat for several, in priority order (overrides the config)', repeated)
    .option('--dry-run', 'do everything but POST offers; decisions are marked dry-run')
    .option('--db <path>', 'SQLite file (overrides LENDBOT_DB and the config)')
    .option(
      '--switch-db-mode',
      'let a dry run go on in a database that holds live offers, or a live run in a dry-run database (it is refused otherwise)',
    )
    .option('--sandbox', 'trade against the embedded simulated marketplace (no real money; what npm start does)')
    .addHelpText(
      'after',
      `${envHelp('Environment (the marketplace and its credentials are required unless --sandbox; the rest overrides the config file, and flags override both)', SERVICE_ENV_HELP, RUN_ENV_HELP, SANDBOX_ENV_HELP)}\nWithout --sandbox (or LENDBOT_SANDBOX=true) it trades on the marketplace; it never falls back to the simulation.\nStop with Ctrl-C or SIGTERM: intake stops, work in flight finishes, the database closes.\nExamples:\n  lendbot run --dry-run          # decide and record, never offer\n  lendbot run --sandbox          # the simulated marketplace (what npm start runs)`,
    )
    .action(async (options: RunOptions) => {
      limitDaemonHeapGrowth();
      const { file, config } = await daemonConfigWithFlags(options, io.env);
      // The simulated marketplace only when asked: the daemon itself knows nothing of it.
      const run = sandboxAsked(options, io.env)
        ? await prepareSandboxRun(config, createLogger({ level: config.log_level }), io.env)
        : { config, overrides: {}, started: () => undefined };
      const database = rememberDatabaseBeforeStart(run.config.db);
      const daemon = await createDaemon(run.config, io.env, {
        ...run.overrides,
        configFile: file,
        ...(options.switchDbMode === true ? { switchStoreMode: true } : {}),
      }).catch(async (error: unknown) => {
        // A refusal at start (a dry-run database asked to run live) leaves no sandbox running.
        await run.overrides.afterStop?.();
        throw error;
      });
      // Before a port is bound or a job runs: refused credentials or an unreachable marketplace
      // end here with one line (the error boundary's); the sandbox has nothing to check.
      await daemon.checkMarketplace().catch((error: unknown) => {
        daemon.store.close();
        database.forgetIfCreated();
        throw error;
      });
      const stopped = installShutdown(daemon, { graceMs: 10_000, log: (line) => io.stderr.write(`${line}\n`) });
      await daemon.start();
      run.started();
      await stopped;
    });
}

const SANDBOX_ENV_HELP: ReadonlyArray<readonly [string, string]> = [
  ['LENDBOT_SANDBOX', 'true: the same as --sandbox (refused beside LENDBOT_BASE_URL)'],
  ['LENDBOT_SANDBOX_SHAPE', 'market shape of the embedded sandbox: classic (default), credit, burden, volatility, shoppers, urgent'],
];

/**
 * Whether to trade against the simulated marketplace: only when asked, by the flag or by
 * LENDBOT_SANDBOX=true. The variable is the kind left behind in a compose file, so beside a
 * marketplace's LENDBOT_BASE_URL it is refused rather than left to silently win.
 */
function sandboxAsked(options: RunOptions, env: CliIo['env']): boolean {
  if (options.sandbox === true) return true;
  const text = env.LENDBOT_SANDBOX?.trim().toLowerCase();
  if (!text || text === 'false') return false;
  if (text !== 'true') throw new ConfigurationError(`LENDBOT_SANDBOX must be true or false (got "${env.LENDBOT_SANDBOX}")`);
  if (env.LENDBOT_BASE_URL?.trim()) {
    throw new ConfigurationError(
      'LENDBOT_SANDBOX=true and LENDBOT_BASE_URL are both set: unset LENDBOT_SANDBOX to trade on the marketplace, or LENDBOT_BASE_URL to run the simulated one',
    );
  }
  return true;
}
