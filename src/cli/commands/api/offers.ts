/** `lendbot api offer` and `lendbot api fund`: the two calls that move money (docs/marketplace.md 4.2, 4.3). */
import type { Command } from 'commander';
import { printJson, type CliIo } from '../../cli-io.js';
import { UserError } from '../../user-error.js';
import { positiveInt, withClient } from './api-context.js';
import { examplesHelp } from '../../examples-help.js';

export function registerOffers(api: Command, io: CliIo): void {
  api
    .command('offer')
    .description('offer an interest rate on a loan request (docs/marketplace.md 4.2); never retried automatically')
    .argument('<loan-request-id>', 'loan request id', positiveInt('loan request id'))
    .requiredOption('--rate <rate>', 'offered interest, 0.03 to 2.0', parseRate)
    .option('--automate-fund', 'fund automatically once the borrower accepts (default: off)')
    .addHelpText(
      'after',
      '\nIf the call fails after it was sent (timeout, reset, 5xx), or the service answers in a way lendbot cannot\nread (a 2xx it cannot parse, a redirect, a 4xx text it does not recognise as a refusal), the outcome is\nunknown [AMBIGUOUS_OUTCOME]: the offer may exist. Check the account before offering again; a second offer\non the same request is refused by the service.',
    )
    .addHelpText(
      'after',
      examplesHelp(
        ['lendbot api offer 1042 --rate 0.228', 'offer 22.8 % on loan request 1042'],
        ['lendbot api offer 1042 --rate 0.19 --automate-fund', 'and fund it as soon as the borrower accepts'],
      ),
    )
    .action(async (loanRequestId: number, options: { rate: number; automateFund?: boolean }) => {
      await withClient(io, async (client) => {
        const offer = await client.makeOffer(loanRequestId, {
          offeredInterest: options.rate,
          automateFund: options.automateFund === true,
        });
        printJson(io, offer);
      });
    });

  api
    .command('fund')
    .description("fund an accepted offer from the investor's balance (docs/marketplace.md 4.3); never retried automatically")
    .argument('<offer-id>', 'accepted offer id', positiveInt('offer id'))
    .addHelpText('after', examplesHelp(['lendbot api fund 5501', 'fund accepted offer 5501 (the id api offer printed)']))
    .action(async (offerId: number) => {
      await withClient(io, async (client) => printJson(io, await client.fundAcceptedOffer(offerId)));
    });
}

function parseRate(text: string): number {
  const rate = Number(text);
  if (text.trim() === '' || !Number.isFinite(rate)) throw new UserError(`--rate must be a number such as 0.25 (got "${text}")`, 'USAGE');
  if (rate < 0.03 || rate > 2) throw new UserError(`--rate must be between 0.03 and 2.0 (got ${text})`, 'USAGE');
  return rate;
}
