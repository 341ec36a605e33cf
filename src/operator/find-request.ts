/**
 * A loan request by id, as the list shows it now (the service has no endpoint for one request).
 * An agent acts only on a request the list still shows: one gone from it is closed to offers.
 */
import type { LoanRequest } from '../domain/index.js';
import type { MarketplaceApi } from '../service/index.js';

export async function findOpenRequest(client: MarketplaceApi, loanRequestId: number): Promise<LoanRequest | undefined> {
  for await (const page of client.loanRequestPages()) {
    const found = page.items.find((request) => request.id === loanRequestId);
    if (found !== undefined) return found;
  }
  return undefined;
}
