/** Recording lines with one field set to a wrong or odd value, for the reader's and the line check's tests. */

/** A copy of `line` with one field set to a wrong or odd value, or left as it is. */
export function mutate(line: Record<string, unknown>, random: () => number): Record<string, unknown> {
  const copy = structuredClone(line) as Record<string, Record<string, unknown>>;
  const request = copy.loan_request as Record<string, unknown>;
  const borrower = request.borrower as Record<string, unknown>;
  const cases: Array<() => void> = [
    () => undefined,
    () => (request.loan_amount = 'abc'),
    () => (request.loan_amount = ' 12.50 '),
    () => (request.total_amount = '1e3'),
    () => (request.loan_terms = '12'),
    () => (request.borrower_card_color = 7),
    () => (request.borrower_card_color = 1.5),
    () => (borrower.credit_score = null),
    () => (borrower.hard_inquiries = null),
    () => delete request.id,
    () => ((copy as Record<string, unknown>).seen_at = '2026-02-30T00:00:00Z'),
    () => ((copy as Record<string, unknown>).seen_at = '2026-01-01 00:00:00'),
    () => ((copy as Record<string, unknown>).v = 2),
    () => ((copy as Record<string, unknown>).outcome = { status: 'default', repaid_fraction: 1.5 }),
    () => ((copy as Record<string, unknown>).outcome = { status: 'lost' }),
    () => ((copy as Record<string, unknown>).someday_field = { anything: [1, 'two'] }),
    () => (request.extra_field_from_the_service = 'kept'),
    () => ((copy as Record<string, unknown>).offer = { rate: 0.2, status: 'accepted', at: '2026-01-01T00:00:00+02:00' }),
    () => ((copy as Record<string, unknown>).scores = { acme: { a_score: 'high' } }),
  ];
  cases[Math.floor(random() * cases.length)]?.();
  return copy;
}
