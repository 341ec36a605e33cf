/** `lendbot api aggs` and `lendbot api score`: data bought about a loan request (docs/marketplace.md 4.4, 4.5). */
import type { Command } from 'commander';
import { printJson, type CliIo } from '../../cli-io.js';
import { positiveInt, withClient } from './api-context.js';
import { examplesHelp } from '../../examples-help.js';

export function registerData(api: Command, io: CliIo): void {
  api
    .command('aggs')
    .description("fetch a loan request's banking data aggregation (docs/marketplace.md 4.4)")
    .argument('<loan-request-id>', 'loan request id', positiveInt('loan request id'))
    .addHelpText('after', '\nThe output holds raw bank transactions, whose memo text may contain personal data.')
    .addHelpText('after', examplesHelp('lendbot api aggs 1042', ['lendbot api aggs 1042 | jq .agg_90', 'the 90-day aggregation only']))
    .action(async (loanRequestId: number) => {
      await withClient(io, async (client) => printJson(io, await client.fetchBankingData(loanRequestId)));
    });

  api
    .command('score')
    .description("fetch a third-party provider's score for a loan request (docs/marketplace.md 4.5)")
    .argument('<loan-request-id>', 'loan request id', positiveInt('loan request id'))
    .requiredOption('--provider <name>', 'provider name as given by the service operator')
    .addHelpText(
      'after',
      '\nCost: provider A is a flat monthly fee; provider B is billed 1.50 USD per call.\nThe call is not retried unless LENDBOT_PROVIDER_RETRIES is set.',
    )
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot api score 1042 --provider provider_a', 'flat monthly fee'],
        ['lendbot api score 1042 --provider provider_b', 'billed per call'],
      ),
    )
    .action(async (loanRequestId: number, options: { provider: string }) => {
      await withClient(io, async (client) => printJson(io, await client.fetchProviderResult(loanRequestId, options.provider)));
    });
}
