/** `lendbot sandbox [serve]`: the simulated marketplace on a port until SIGINT/SIGTERM. */
import type { Command } from 'commander';
import { createLogger } from '../../../log/logger.js';
import { DEFAULT_PROVIDER_NAMES, DEFAULT_SHAPE_NAME, DEFAULT_START_TIME, startSandbox } from '../../../sandbox/index.js';
import type { CliIo } from '../../cli-io.js';
import { isoTimeText, nonNegativeNumber, positiveNumber, shapeName, shapesHelp, tokenLayout, wholeNumber } from './options.js';
import { examplesHelp } from '../../examples-help.js';

interface ServeOptions {
  port: number;
  host: string;
  seed: number;
  shape: string;
  speed: number;
  arrivals: number;
  start: string;
  balance: number;
  providerA: string;
  providerB: string;
  webhookTokenLayout: 'envelope' | 'data';
  verbose?: boolean;
}

export function registerServe(sandbox: Command, io: CliIo): void {
  sandbox
    .command('serve', { isDefault: true })
    .description('serve the simulated marketplace (the default subcommand) until SIGINT or SIGTERM')
    .option('--port <port>', 'port to listen on (0: a free port)', wholeNumber('--port', 0, 65535), 8787)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--seed <n>', 'market seed: the same seed gives the same market', wholeNumber('--seed', 0), 42)
    .option(
      '--shape <name>',
      'market shape: what drives default and how lenders and borrowers behave',
      shapeName('--shape'),
      DEFAULT_SHAPE_NAME,
    )
    .option('--speed <x>', 'simulated seconds per real second', positiveNumber('--speed'), 3600)
    .option('--arrivals <n>', 'new loan requests per simulated hour', nonNegativeNumber('--arrivals'), 30)
    .option('--start <iso>', 'start of simulated time', isoTimeText('--start'), DEFAULT_START_TIME)
    .option('--balance <usd>', "the sandbox investor's starting balance in USD", nonNegativeNumber('--balance'), 10_000)
    .option('--provider-a <name>', 'name of score provider A (flat monthly price)', DEFAULT_PROVIDER_NAMES.a)
    .option('--provider-b <name>', 'name of score provider B (billed per request)', DEFAULT_PROVIDER_NAMES.b)
    .option(
      '--webhook-token-layout <layout>',
      'envelope: token claims {webhook_uuid, topic, data}; data: claims are the data, uuid and topic beside the token',
      tokenLayout('--webhook-token-layout'),
      'envelope',
    )
    .option('--verbose', 'log the sandbox’s own activity on stderr')
    .addHelpText(
      'after',
      `
Prints the base URL and the sandbox investor's API key, secret key and webhook secret, then
serves spec endpoints under /api/v3/ and the control API under /_sandbox/ (docs/sandbox.md).
Point lendbot at it with the LENDBOT_* lines it prints.

Market shapes:
${shapesHelp()}`,
    )
    .addHelpText(
      'after',
      examplesHelp(
        'lendbot sandbox serve',
        ['lendbot sandbox serve --port 9000 --speed 86400 --shape credit', 'a day a second, the credit-driven market'],
        ['lendbot sandbox serve --balance 2500 --arrivals 60 --verbose', ''],
      ),
    )
    .action(async (options: ServeOptions) => {
      const log = createLogger({ level: options.verbose ? 'info' : 'warn', destination: io.stderr, pretty: false });
      const handle = await startSandbox({
        port: options.port,
        host: options.host,
        seed: options.seed,
        shape: options.shape,
        speed: options.speed,
        arrivalsPerHour: options.arrivals,
        startTime: options.start,
        initialBalanceCents: Math.round(options.balance * 100),
        providerNames: { a: options.providerA, b: options.providerB },
        webhookTokenLayout: options.webhookTokenLayout,
        log,
      });
      const { apiKey, secretKey, webhookSecret } = handle.credentials;
      io.stdout.write(
        [
          `sandbox marketplace listening on ${handle.url} (shape ${options.shape}, seed ${options.seed}, speed ${options.speed}x, ${options.arrivals} requests/hour)`,
          `export LENDBOT_BASE_URL=${handle.url}`,
          `export LENDBOT_API_KEY=${apiKey}`,
          `export LENDBOT_SECRET_KEY=${secretKey}`,
          `export LENDBOT_WEBHOOK_SECRET=${webhookSecret}`,
          `control API: ${handle.url}/_sandbox/ (see docs/sandbox.md); stop with Ctrl-C`,
          '',
        ].join('\n'),
      );
      const signal = await new Promise<string>((resolve) => {
        process.once('SIGINT', () => resolve('SIGINT'));
        process.once('SIGTERM', () => resolve('SIGTERM'));
      });
      await handle.close();
      io.stderr.write(`sandbox stopped (${signal})\n`);
    });
}
