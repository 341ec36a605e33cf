/**
 * `lendbot run --sandbox`: the run command, not the daemon, starts the simulated marketplace
 * and hands the daemon its client, clock and webhook secret as overrides, so the daemon (the
 * production code) never imports the simulator. The sandbox runs its market a day a second, so
 * jobs left at their live schedules run every few seconds, and back-off waits in real time.
 */
import { systemClock } from '../../../clock/clock.js';
import { daemonConfigSchema, type DaemonConfigFile } from '../../../daemon/daemon-config.js';
import type { DaemonOverrides } from '../../../daemon/daemon.js';
import { loadStrategyFiles } from '../../../engine/index.js';
import type { Logger } from '../../../log/logger.js';
import { embeddedSandboxShape, startEmbeddedSandbox } from './embedded-sandbox.js';
import { sandboxDatabase } from './sandbox-database.js';
import { sandboxRequestHolds } from './sandbox-request-holds.js';

/**
 * `env` is where LENDBOT_SANDBOX_SHAPE is read (the CLI's environment; default this process's);
 * `defaultDb` is the database path a run gets when none is chosen (the config's default).
 */
export async function prepareSandboxRun(
  config: DaemonConfigFile,
  log: Logger,
  env: Readonly<Record<string, string | undefined>> = process.env,
  defaultDb: string = daemonConfigSchema.parse({}).db,
): Promise<{ config: DaemonConfigFile; overrides: DaemonOverrides; started: () => void }> {
  const defaults = daemonConfigSchema.parse({});
  // Before the previous sandbox run's database is emptied: a typo in a strategy path or a bad
  // strategy file must stop the run with its one line and lose nothing (the daemon loads them again).
  await loadStrategyFiles(config.strategies);
  // Decided before the sandbox starts, so a refusal leaves nothing running.
  const db = sandboxDatabase(config.db, defaultDb, log, systemClock.now());
  const shape = embeddedSandboxShape(env);
  const sandbox = await startEmbeddedSandbox(config, log, shape);
  return {
    config: { ...withSandboxCadence(config, defaults), db, webhook: { ...config.webhook, host: '127.0.0.1', port: sandbox.webhookPort } },
    overrides: {
      client: sandbox.client,
      clock: sandbox.clock,
      webhookSecret: sandbox.webhookSecret,
      backoffClock: systemClock,
      clockSpeed: config.sandbox.speed,
      mode: 'sandbox',
      // At a day a second a borrower decides before any person could approve a proposal.
      requestHolds: sandboxRequestHolds(sandbox.url, sandbox.clock, config.sandbox.speed),
      afterStop: () => sandbox.close(),
      log,
    },
    // Once the daemon listens, the sandbox's webhooks to it start.
    started: () => sandbox.daemonListening(),
  };
}

/**
 * The sandbox runs an hour of market in seconds; jobs left at their live defaults (minutes) would
 * show nothing happening, so they run every few seconds unless configured otherwise.
 */
function withSandboxCadence(config: DaemonConfigFile, defaults: DaemonConfigFile): DaemonConfigFile {
  const fast = '*/5 * * * * *';
  // Acceptances last two simulated days (two real seconds): funding by hand must look every second.
  const everySecond = '* * * * * *';
  const pick = (value: string, fallback: string, to = fast): string => (value === fallback ? to : value);
  return {
    ...config,
    poll: { ...config.poll, schedule: pick(config.poll.schedule, defaults.poll.schedule) },
    jobs: {
      balance_refresh: pick(config.jobs.balance_refresh, defaults.jobs.balance_refresh),
      reconcile: pick(config.jobs.reconcile, defaults.jobs.reconcile, everySecond),
      fund_accepted: pick(config.jobs.fund_accepted, defaults.jobs.fund_accepted, everySecond),
      protections: pick(config.jobs.protections, defaults.jobs.protections),
      retrain: pick(config.jobs.retrain, defaults.jobs.retrain),
    },
  };
}
