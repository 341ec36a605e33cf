/**
 * The nine rejection rules of marketplace 4.2 and the five fund preconditions of marketplace 4.3, as values:
 * a refusal says which rule, the status, the body key and the text the service sends. Where the
 * real service's text is known it is used verbatim; the others are ours (docs/sandbox.md).
 */
import { formatCents } from '../domain/index.js';
import type { InvestorAccount, LoanRequestRecord, OfferRecord } from './market-types.js';

export interface Refusal {
  rule: string;
  status: 400 | 403 | 404;
  /** The body key: rule 2 answers `{message}`, the rest `{detail}`. */
  key: 'detail' | 'message';
  text: string;
}

export const OFFER_TEXTS = {
  borrowing: 'Borrower can not offer.',
  noBank: 'You need a verified bank account to make an offer.',
  canceled: 'This loan request has been canceled.',
  signed: 'This loan request has already been signed.',
  acceptedOther: "You can't make an offer as the borrower has already accepted another offer",
  alreadyOffered: 'You have already made an offer for this Loan Request',
  maxRate: (max: number): string => `The maximum interest rate allowed for this loan request is ${max}`,
  balance: 'Your balance is not sufficient to fund this loan automatically.',
  closed: 'This loan request is no longer open for offers.',
} as const;

export const FUND_TEXTS = {
  processed: 'Funding for this offer has already been initiated.',
  notAccepted: 'This offer has not been accepted by the borrower.',
  notOffered: 'The loan request is not in Offered status.',
  noFundingResource: 'The borrower has no primary funding resource.',
  balance: (balance: number, total: number): string =>
    `Your balance (${formatCents(balance)}) does not exceed the loan total amount (${formatCents(total)}).`,
  started: 'Funding has started. You will be notified when it is finished.',
} as const;

const refuse = (rule: string, text: string, key: 'detail' | 'message' = 'detail'): Refusal => ({ rule, status: 400, key, text });

/** Total amount of a request in cents: loan amount plus all fees. */
export function totalCents(request: LoanRequestRecord): number {
  return request.loanAmountCents + request.feeLegislativeCents + request.feeExtraCents + request.feeSvcCents;
}

/**
 * Checks an offer against rules 2 to 9 (rule 1, authentication, is the server's). The order is
 * ours: account first, then the request's state, then the offer itself.
 */
export function checkOfferRules(input: {
  account: InvestorAccount;
  request: LoanRequestRecord;
  investorOffers: readonly OfferRecord[];
  rate: number;
  automateFund: boolean;
  availableCents: number;
}): Refusal | undefined {
  const { account, request } = input;
  if (account.borrowing) return refuse('2 investor is borrowing', OFFER_TEXTS.borrowing, 'message');
  if (!account.bankVerified) return refuse('9 no verified bank account', OFFER_TEXTS.noBank);
  if (request.status === 'canceled') return refuse('5 canceled', OFFER_TEXTS.canceled);
  if (request.status === 'signed') return refuse('6 signed', OFFER_TEXTS.signed);
  if (input.investorOffers.some((offer) => offer.loanRequestId === request.id)) {
    return refuse('7 already offered', OFFER_TEXTS.alreadyOffered);
  }
  if (request.status === 'offered') return refuse('8 accepted another offer', OFFER_TEXTS.acceptedOther);
  if (request.status !== 'open') return refuse('closed', OFFER_TEXTS.closed);
  if (input.rate > request.maxInterestRate) return refuse('3 above max rate', OFFER_TEXTS.maxRate(request.maxInterestRate));
  if (input.automateFund && input.availableCents <= totalCents(request)) return refuse('4 balance', OFFER_TEXTS.balance);
  return undefined;
}

/** Checks the five preconditions of marketplace 4.3 for the investor's offer. */
export function checkFund(input: { offer: OfferRecord; request: LoanRequestRecord; availableCents: number }): Refusal | undefined {
  const { offer, request } = input;
  if (offer.processed) return refuse('1 processed', FUND_TEXTS.processed);
  if (offer.status !== 'accepted') return refuse('2 not accepted', FUND_TEXTS.notAccepted);
  if (request.status !== 'offered' || request.acceptedOfferId !== offer.id) return refuse('3 not offered', FUND_TEXTS.notOffered);
  if (!request.borrower.hasFundingResource) return refuse('4 no funding resource', FUND_TEXTS.noFundingResource);
  const total = totalCents(request);
  if (input.availableCents <= total) return refuse('5 balance', FUND_TEXTS.balance(input.availableCents, total));
  return undefined;
}
