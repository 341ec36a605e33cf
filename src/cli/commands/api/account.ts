/**
 * `lendbot api transfers|loans|payments|history|balance`: reading the account (docs/marketplace.md 4.6 to 4.9).
 */
import type { Command } from 'commander';
import { balanceFromTransfers, formatCents, LOAN_STATUSES, type LoanListStatus } from '../../../domain/index.js';
import { collectPages } from '../../../service/index.js';
import { printJson, warn, type CliIo } from '../../cli-io.js';
import { UserError } from '../../user-error.js';
import { positiveInt, printList, reportIssues, withClient, withPaging } from './api-context.js';
import { examplesHelp } from '../../examples-help.js';

export function registerAccount(api: Command, io: CliIo): void {
  withPaging(
    api
      .command('transfers')
      .description('transfer history, grouped by date (docs/marketplace.md 4.6)')
      .addHelpText(
        'after',
        examplesHelp('lendbot api transfers', ['lendbot api transfers --all > transfers.json', 'every page, as one JSON array']),
      ),
  ).action(async (options: { all?: boolean; page?: number }) => {
    await withClient(io, (client) =>
      printList(
        io,
        options,
        (page) => client.listTransfers(page),
        () => client.transferPages(),
      ),
    );
  });

  withPaging(
    api
      .command('loans')
      .description("the investor's loans by status (docs/marketplace.md 4.7)")
      .requiredOption('--status <status>', `one of ${LOAN_STATUSES.join(', ')}`, parseStatus)
      .addHelpText(
        'after',
        examplesHelp('lendbot api loans --status current', [
          'lendbot api loans --status default --all',
          'every defaulted loan, as one JSON array',
        ]),
      ),
  ).action(async (options: { status: LoanListStatus; all?: boolean; page?: number }) => {
    await withClient(io, (client) =>
      printList(
        io,
        options,
        (page) => client.listLoans(options.status, page),
        () => client.loanPages(options.status),
      ),
    );
  });

  api
    .command('payments')
    .description('the payments of a loan, as a plain array (docs/marketplace.md 4.8)')
    .argument('<loan-id>', 'loan id', positiveInt('loan id'))
    .addHelpText('after', examplesHelp(['lendbot api payments 77', 'the payments of loan 77 (ids from api loans)']))
    .action(async (loanId: number) => {
      await withClient(io, async (client) => {
        const { items, issues } = await client.listLoanPayments(loanId);
        reportIssues(io, issues);
        printJson(io, items);
      });
    });

  withPaging(
    api
      .command('history')
      .description("the borrower's completed loans for a loan request (docs/marketplace.md 4.9)")
      .argument('<loan-request-id>', 'loan request id', positiveInt('loan request id'))
      .addHelpText('after', examplesHelp('lendbot api history 1042', ['lendbot api history 1042 --all', 'every page'])),
  ).action(async (loanRequestId: number, options: { all?: boolean; page?: number }) => {
    await withClient(io, (client) =>
      printList(
        io,
        options,
        (page) => client.listBorrowerLoanHistory(loanRequestId, page),
        () => client.borrowerLoanHistoryPages(loanRequestId),
      ),
    );
  });

  api
    .command('balance')
    .description('the balance, derived from the whole transfer history (the service has no balance endpoint)')
    .addHelpText(
      'after',
      `
How it is computed:
  balance    the sum of processed transfers (signed; outgoing amounts are negative)
  pending    pending outgoing transfers are committed money: they reduce "available";
             pending incoming transfers are shown but not counted until processed
  failed     failed transfers moved nothing and are ignored
  available  balance + pending outgoing`,
    )
    .addHelpText('after', examplesHelp('lendbot api balance', ['lendbot api balance | jq -r .available', 'what can be offered now']))
    .action(async () => {
      await withClient(io, async (client) => {
        const { items, issues } = await collectPages(client.transferPages());
        reportIssues(io, issues);
        if (issues.length > 0) warn(io, `${issues.length} transfer group(s) left out: the balance below may be wrong`);
        const summary = balanceFromTransfers(items);
        for (const status of summary.unknownStatuses) warn(io, `unknown transfer status "${status}" counted as pending`);
        printJson(io, {
          balance: formatCents(summary.balanceCents),
          available: formatCents(summary.availableCents),
          pending_out: formatCents(summary.pendingOutCents),
          pending_in: formatCents(summary.pendingInCents),
          transfers: summary.transfers,
        });
      });
    });
}

function parseStatus(text: string): LoanListStatus {
  if (!(LOAN_STATUSES as readonly string[]).includes(text)) {
    throw new UserError(`--status must be one of ${LOAN_STATUSES.join(', ')} (got "${text}")`, 'USAGE');
  }
  return text as LoanListStatus;
}
