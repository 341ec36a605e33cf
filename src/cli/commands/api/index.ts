/** `lendbot api`: the marketplace client from a terminal, like `gh api`. */
import type { Command } from 'commander';
import type { CliIo } from '../../cli-io.js';
import { registerAccount } from './account.js';
import { ENV_HELP_TEXT } from './api-context.js';
import { registerData } from './data.js';
import { registerLoanRequests } from './loan-requests.js';
import { registerOffers } from './offers.js';
import { examplesHelp } from '../../examples-help.js';

export function registerApiCommand(program: Command, io: CliIo): void {
  const api = program
    .command('api')
    .description('call the marketplace directly: JSON on stdout, errors on stderr')
    .addHelpText('after', ENV_HELP_TEXT)
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot api loan-requests --svc-color 1 --credit-score 600-700', 'medium risk, credit score 600 to 700'],
        ['lendbot api loans --status current --all', 'every current loan, as one JSON array'],
        ['lendbot api balance', 'derived from the transfer history'],
        ['lendbot sandbox', 'a local marketplace to try these on: it prints the LENDBOT_* lines to set'],
      ),
    );
  registerLoanRequests(api, io);
  registerOffers(api, io);
  registerData(api, io);
  registerAccount(api, io);
}
