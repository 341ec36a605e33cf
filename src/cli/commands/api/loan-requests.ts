/** `lendbot api loan-requests`: list loan requests with every filter of docs/marketplace.md 4.1. */
import type { Command } from 'commander';
import { parseNumericFilter, parseNumericRangeText, type LoanRequestFilters } from '../../../service/index.js';
import type { CliIo } from '../../cli-io.js';
import { UserError } from '../../user-error.js';
import { printList, withClient, withPaging } from './api-context.js';
import { examplesHelp } from '../../examples-help.js';
import { commaList } from '../../comma-list.js';

interface LoanRequestOptions {
  svcColor?: string;
  creditScore?: string;
  loanAmount?: string;
  loanTerms?: string;
  completedLoans?: string;
  invitedBorrowers?: boolean;
  previousBorrowers?: boolean;
  state?: string;
  zipCode?: string;
  nearbyZipcodes?: boolean;
  all?: boolean;
  page?: number;
}

export function registerLoanRequests(api: Command, io: CliIo): void {
  withPaging(
    api
      .command('loan-requests')
      .description('list loan requests issued within the last 30 days (docs/marketplace.md 4.1)')
      .option('--svc-color <0-4>', 'risk level: 0 low, 1 medium, 2 high, 3 friends, 4 crypto-backed')
      .option('--credit-score <range>', 'credit score range: MIN-MAX, MIN- or -MAX (e.g. 600-700)')
      .option('--loan-amount <range>', 'loan amount range in USD (e.g. 500-2000)')
      .option('--loan-terms <range>', 'number of terms range (e.g. 3-12)')
      .option('--completed-loans <filter>', 'completed-loan count: 1,2,3 or 1-3 or 1,2,3-10')
      .option('--invited-borrowers', 'only requests of invited borrowers')
      .option('--previous-borrowers', 'only requests of previous borrowers with completed loans')
      .option('--state <list>', 'states, comma separated: codes or names, any case (e.g. CA,texas)')
      .option('--zip-code <list>', 'zip codes, comma separated')
      .option('--nearby-zipcodes', "only requests near the lender's zip codes")
      .addHelpText(
        'after',
        examplesHelp(
          'lendbot api loan-requests',
          ['lendbot api loan-requests --svc-color 0 --loan-amount 500-2000 --all', 'low risk, 500 to 2000 USD, every page'],
          ['lendbot api loan-requests --state CA,texas --completed-loans 1-3 --page 2', ''],
        ),
      ),
  ).action(async (options: LoanRequestOptions) => {
    const filters = filtersFromOptions(options);
    await withClient(io, (client) =>
      printList(
        io,
        options,
        (page) => client.listLoanRequests(filters, page),
        () => client.loanRequestPages(filters),
      ),
    );
  });
}

function filtersFromOptions(options: LoanRequestOptions): LoanRequestFilters {
  const filters: LoanRequestFilters = {};
  if (options.svcColor !== undefined) {
    if (!/^[0-4]$/.test(options.svcColor)) throw new UserError(`--svc-color must be 0, 1, 2, 3 or 4 (got "${options.svcColor}")`, 'USAGE');
    filters.svcColor = Number(options.svcColor);
  }
  if (options.creditScore !== undefined) filters.creditScore = parseNumericRangeText(options.creditScore, '--credit-score');
  if (options.loanAmount !== undefined) filters.loanAmount = parseNumericRangeText(options.loanAmount, '--loan-amount');
  if (options.loanTerms !== undefined) filters.loanTerms = parseNumericRangeText(options.loanTerms, '--loan-terms');
  if (options.completedLoans !== undefined) {
    parseNumericFilter(options.completedLoans, '--completed-loans');
    filters.completedLoans = options.completedLoans;
  }
  if (options.invitedBorrowers) filters.invitedBorrowers = true;
  if (options.previousBorrowers) filters.previousBorrowers = true;
  if (options.state !== undefined) filters.state = commaList(options.state);
  if (options.zipCode !== undefined) filters.zipCode = commaList(options.zipCode);
  if (options.nearbyZipcodes) filters.nearbyZipcodes = true;
  return filters;
}
