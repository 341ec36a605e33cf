/** `lendbot api`: the marketplace client from a terminal, like `gh api`. */
import type { Command } from 'commander';
import type { CliIo } from '../../cli-io.js';
import { registerAccount } from './account.js';
import { ENV_HELP_TEXT } from './api-context.js';
import { registerData } from './data.js';
import { registerLoanRequests } from './loan-requests.js';
import { registerOffers } from './offers.js';

export function registerApiCommand(program: Command, io: CliIo): void {
  const api = program
    .command('api')
    .description('call the marketplace directly: JSON on stdout, errors on stderr')
    .addHelpText('after', ENV_HELP_TEXT);
  registerLoanRequests(api, io);
  registerOffers(api, io);
  registerData(api, io);
  registerAccount(api, io);
}
