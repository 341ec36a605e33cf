/**
 * `lendbot doctor`: the pre-flight check before going live. One line per check with what it found
 * and the fix: credentials, clock, balance, webhook listener, operator listener, database,
 * strategies, notifications. It starts nothing and changes nothing (a test message only with
 * --notify). Exit code 0 only when live trading can work: no check failed (warnings allowed).
 */
import type { Command } from 'commander';
import { systemClock, type Clock } from '../../../clock/clock.js';
import { loadDaemonConfig, type DaemonConfigFile } from '../../../daemon/daemon-config.js';
import { WING_CHECKS } from '../../../daemon/wing-parts.js';
import { serviceConfigFromEnv, serviceSettingsFromSection, type ServiceConfig } from '../../../service/index.js';
import { printJson, type CliIo } from '../../cli-io.js';
import { examplesHelp } from '../../examples-help.js';
import { UserError } from '../../user-error.js';
import { configFileOf, DEFAULT_CONFIG_FILE } from '../../default-config-file.js';
import { errorText, failed, formatChecks, runCheck, skipped, type CheckOutcome, type CheckResult } from './check-runner.js';
import { httpUrl } from '../webhook/signed-event.js';
import { checkWebhook } from './listener-checks.js';
import { checkDatabase, checkOperatorPort, checkStrategy } from './local-checks.js';
import { checkBalance, checkClockSkew, checkCredentials, doctorClient, signedReadOf } from './marketplace-checks.js';

interface DoctorOptions {
  config?: string;
  db?: string;
  webhookUrl?: string;
  notify?: boolean;
  json?: boolean;
  timeout: number;
}

const DEFAULT_TIMEOUT_SECONDS = 10;

export function registerDoctorCommand(program: Command, io: CliIo): void {
  program
    .command('doctor')
    .description('check everything live trading needs, one line each with the fix: keys, clock, balance, listeners, database, strategies')
    .option('--config <file>', `configuration file (default ${DEFAULT_CONFIG_FILE} when it exists)`)
    .option('--db <path>', 'the database to check (default: LENDBOT_DB, then the config, then data/lendbot.db)')
    .option(
      '--webhook-url <url>',
      'the public webhook address the marketplace posts to: a signed test event is sent there (a failure then fails)',
      httpUrl('--webhook-url'),
    )
    .option('--notify', 'send a test message to the notification target')
    .option('--json', 'one JSON document: {ok, checks: [{name, status, detail, fix}]}')
    .option('--timeout <seconds>', 'the longest each check may take', parseSeconds, DEFAULT_TIMEOUT_SECONDS)
    .addHelpText(
      'after',
      `
Each line is ✓ (ok), ! (warning), ✗ (FAIL) or - (skipped); without a terminal: ok, warn, FAIL, skip.
Exit code 0 when no check failed: live trading can work.`,
    )
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot doctor', 'the keys in LENDBOT_*, config/lendbot.yaml, a running daemon if any'],
        ['lendbot doctor --webhook-url https://bot.example.com/webhooks', 'send a signed test event through the proxy in front'],
        ['lendbot doctor --webhook-url https://bot.example.com/webhooks --notify --json', 'everything, for a script'],
        ['lendbot doctor --config config/lendbot.yaml --db /data/lendbot.db', 'that config, that database'],
      ),
    )
    .action(async (options: DoctorOptions) => {
      const results = await runDoctor(options, io, systemClock);
      if (options.json) printJson(io, { ok: results.every((result) => result.status !== 'fail'), checks: results });
      else io.stdout.write(formatChecks(results, io.stdout.isTTY === true));
      const failures = results.filter((result) => result.status === 'fail').length;
      if (failures > 0)
        throw new UserError(
          `${failures} check${failures === 1 ? '' : 's'} failed: live trading cannot work until ${failures === 1 ? 'it is' : 'they are'} fixed`,
        );
    });
}

async function runDoctor(options: DoctorOptions, io: CliIo, clock: Clock): Promise<CheckResult[]> {
  const timeoutMs = options.timeout * 1000;
  const results: CheckResult[] = [];
  const check = async (name: string, work: () => Promise<CheckOutcome>): Promise<CheckOutcome> => {
    const result = await runCheck(name, timeoutMs, work);
    results.push(result);
    return result;
  };
  const skip = (name: string, why: string): void => {
    results.push({ name, ...skipped(why) });
  };

  let config: DaemonConfigFile | undefined;
  const file = configFileOf(options.config);
  await check('config', async () => {
    try {
      config = await loadDaemonConfig(file, io.env);
      return { status: 'ok', detail: file === undefined ? 'no config file: the defaults' : `${file} is valid` };
    } catch (error) {
      return failed(errorText(error), 'lendbot run --help lists the settings; config/lendbot.reference.yaml documents each key');
    }
  });

  let service: ServiceConfig | undefined;
  try {
    service = { ...serviceConfigFromEnv(io.env), ...(config === undefined ? {} : serviceSettingsFromSection(config.service)) };
  } catch (error) {
    results.push({
      name: 'credentials',
      ...failed(errorText(error), 'export LENDBOT_BASE_URL, LENDBOT_API_KEY and LENDBOT_SECRET_KEY (README, "Credentials")'),
    });
  }
  if (service !== undefined) {
    const client = doctorClient(service, timeoutMs, clock);
    try {
      const settings = service;
      const credentials = await check('credentials', () => checkCredentials(client, settings.baseUrl));
      // No answer at all was said once, with its fix, on the credentials line.
      if (credentials.detail.includes('[NETWORK_ERROR]')) skip('clock', 'needs an answer from the marketplace');
      else await check('clock', () => checkClockSkew(settings, clock, timeoutMs, signedReadOf(credentials)));
      if (credentials.status === 'fail') skip('balance', 'needs accepted credentials');
      else await check('balance', () => checkBalance(client));
    } finally {
      client.close();
    }
  } else {
    skip('clock', 'needs LENDBOT_BASE_URL and the keys');
    skip('balance', 'needs LENDBOT_BASE_URL and the keys');
  }

  if (config === undefined) {
    for (const name of ['webhook', 'operator', 'database', 'strategies', ...WING_CHECKS.map((wing) => wing.name)])
      skip(name, 'needs a valid config');
    return results;
  }
  const loaded = config;
  await check('webhook', () =>
    checkWebhook({ config: loaded, secret: io.env.LENDBOT_WEBHOOK_SECRET, url: options.webhookUrl, clock, timeoutMs }),
  );
  await check('operator', () => checkOperatorPort(loaded.ops.host, loaded.ops.port, timeoutMs));
  await check('database', async () => checkDatabase(options.db ?? loaded.db));
  for (const strategyFile of loaded.strategies) await check('strategy', () => checkStrategy(strategyFile));
  const wingInput = { config: loaded, env: io.env, notify: options.notify === true, clock, timeoutMs };
  for (const wingCheck of WING_CHECKS) await check(wingCheck.name, () => wingCheck.run(wingInput));
  return results;
}

function parseSeconds(text: string): number {
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 600)
    throw new UserError(`--timeout must be seconds between 0 and 600 (got "${text}")`, 'USAGE');
  return seconds;
}
