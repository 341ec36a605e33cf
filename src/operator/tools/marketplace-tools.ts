/**
 * The marketplace's read tools (marketplace 4.1 and 4.4 to 4.9), straight through the daemon's client:
 * loan requests with every filter, a borrower's history, banking data, the lender's loans,
 * payments and transfers. Nothing here writes to the service or the store.
 *
 * What the service sent goes to the agent without personal data and marked as data, not
 * instructions (untrusted-data.ts): under `untrusted_marketplace_data`, and in the text after
 * lendbot's own summary, which is built only from the numbers and ids the client validated
 * (never a status text, a key or any other string the service chose).
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { LoanRequestFilters, Page } from '../../service/index.js';
import type { AgentContext } from '../agent-context.js';
import { marketplaceAnswer } from '../untrusted-data.js';

const range = (what: string) =>
  z
    .strictObject({ min: z.number().min(0).optional(), max: z.number().min(0).optional() })
    .optional()
    .describe(`${what} range, both bounds inclusive; either may be left out`);
const page = z.number().int().min(1).default(1).describe('page number, from 1');
const loanRequestId = z.number().int().positive().describe('loan request id');

const listLoanRequestsInput = {
  risk_level: z.number().int().min(0).max(4).optional().describe('risk level (svc_color) 0-4'),
  credit_score: range('credit score'),
  loan_amount: range('loan amount in USD'),
  loan_terms: range('loan term in months'),
  completed_loans: z.string().optional().describe('borrower completed-loan count: a list, a range or both, e.g. "1,2,3-10"'),
  invited_borrowers: z.boolean().optional().describe('only requests of invited borrowers'),
  previous_borrowers: z.boolean().optional().describe('only previous borrowers with completed loans'),
  state: z.array(z.string()).optional().describe('borrower states, two-letter codes or names, e.g. ["CA", "Texas"]'),
  zip_code: z.array(z.string()).optional().describe('borrower zip codes, e.g. ["94103"]'),
  nearby_zipcodes: z.boolean().optional().describe("only requests near the lender's zip codes"),
  page,
};

type ListArgs = z.infer<z.ZodObject<typeof listLoanRequestsInput>>;

/** The tool's arguments as the client's filters. */
function filtersOf(args: ListArgs): LoanRequestFilters {
  const filters: LoanRequestFilters = {};
  if (args.risk_level !== undefined) filters.svcColor = args.risk_level;
  if (args.credit_score) filters.creditScore = args.credit_score;
  if (args.loan_amount) filters.loanAmount = args.loan_amount;
  if (args.loan_terms) filters.loanTerms = args.loan_terms;
  if (args.completed_loans !== undefined) filters.completedLoans = args.completed_loans;
  if (args.invited_borrowers !== undefined) filters.invitedBorrowers = args.invited_borrowers;
  if (args.previous_borrowers !== undefined) filters.previousBorrowers = args.previous_borrowers;
  if (args.state) filters.state = args.state;
  if (args.zip_code) filters.zipCode = args.zip_code;
  if (args.nearby_zipcodes !== undefined) filters.nearbyZipcodes = args.nearby_zipcodes;
  return filters;
}

/** A page of a list: `line` says an item from its validated numbers and ids only. */
function pageAnswer<T>(
  label: string,
  pageNumber: number,
  result: Page<T>,
  line: (item: T) => string,
): ReturnType<typeof marketplaceAnswer> {
  const shown = result.items.slice(0, 10).map(line).join('; ');
  const more = result.items.length > 10 ? `; and ${result.items.length - 10} more` : '';
  const text = `${result.items.length} ${label} on page ${pageNumber} of ${result.count} in all${result.next ? ' (more pages)' : ''}${shown ? `: ${shown}${more}` : ''}.`;
  const facts = {
    page: pageNumber,
    count: result.count,
    has_next_page: result.next !== null,
    // Items that failed validation are left out (docs/service-client.md); say how many.
    invalid_items: result.issues.length,
  };
  return marketplaceAnswer(text, facts, { items: result.items });
}

export function registerMarketplaceTools(server: McpServer, context: AgentContext): void {
  const { client } = context;
  const readOnly = { readOnlyHint: true, openWorldHint: true };

  server.registerTool(
    'list_loan_requests',
    {
      title: 'List loan requests',
      description: 'Browse open loan requests with any of its filters; one page at a time.',
      inputSchema: listLoanRequestsInput,
      annotations: readOnly,
    },
    async (args) => {
      const result = await client.listLoanRequests(filtersOf(args), args.page);
      return pageAnswer(
        'loan requests',
        args.page,
        result,
        (r) => `#${r.id} $${r.total_amount} risk ${r.borrower_card_color} ${r.loan_terms} months max rate ${r.max_interest_rate}`,
      );
    },
  );

  server.registerTool(
    'get_borrower_history',
    {
      title: "A borrower's loan history",
      description: 'The completed loans of the borrower behind a loan request.',
      inputSchema: { loan_request_id: loanRequestId, page },
      annotations: readOnly,
    },
    async (args) => {
      const result = await client.listBorrowerLoanHistory(args.loan_request_id, args.page);
      return pageAnswer(
        `completed loans of the borrower of request ${args.loan_request_id}`,
        args.page,
        result,
        (item) => `$${item.loan_amount} over ${item.payment_terms} payments at ${item.interest_rate}`,
      );
    },
  );

  server.registerTool(
    'get_banking_data',
    {
      title: 'Banking data',
      description: "The bank-derived data aggregation of a loan request's borrower (free).",
      inputSchema: { loan_request_id: loanRequestId },
      annotations: readOnly,
    },
    async (args) => {
      const data = await client.fetchBankingData(args.loan_request_id);
      const transactions = data.data_aggregation?.DepAcctTrns?.BankAcctTrnRec?.length ?? 0;
      return marketplaceAnswer(
        `Banking data of loan request ${args.loan_request_id}: ${transactions} bank transactions (memos and names removed).`,
        { loan_request_id: args.loan_request_id },
        { banking_data: data },
      );
    },
  );

  server.registerTool(
    'list_loans',
    {
      title: "The lender's loans",
      description: "The lender's loans by status: current (pending or funded), completed, collection, default.",
      inputSchema: { status: z.enum(['current', 'completed', 'collection', 'default']).default('current'), page },
      annotations: readOnly,
    },
    async (args) => {
      const result = await client.listLoans(args.status, args.page);
      return pageAnswer(
        `${args.status} loans`,
        args.page,
        result,
        (loan) => `#${loan.id} $${loan.loan_amount.toFixed(2)} at ${loan.interest_rate}`,
      );
    },
  );

  server.registerTool(
    'get_payment_schedule',
    {
      title: "A loan's payments",
      description: "The payment schedule of one of the lender's loans: due dates, amounts, states.",
      inputSchema: { loan_id: z.number().int().positive().describe('loan id (from list_loans)') },
      annotations: readOnly,
    },
    async (args) => {
      const { items, issues } = await client.listLoanPayments(args.loan_id);
      const paid = items.filter((payment) => payment.payment_status.toLowerCase() === 'paid').length;
      return marketplaceAnswer(
        `Loan ${args.loan_id}: ${items.length} payments, ${paid} paid.`,
        { loan_id: args.loan_id, invalid_items: issues.length },
        { payments: items },
      );
    },
  );

  server.registerTool(
    'list_transactions',
    {
      title: 'Transfer history',
      description: "The lender's transfers (funding, repayments, deposits) grouped by day.",
      inputSchema: { page },
      annotations: readOnly,
    },
    async (args) => {
      const result = await client.listTransfers(args.page);
      return pageAnswer('days of transfers', args.page, result, (group) => `${group.date}: ${group.transactions.length} transfers`);
    },
  );
}
