/**
 * The soak's checks (bench/soak.ts), each a plain function of what it reads: the money promised
 * at the sandbox and in the daemon's own database against the balance, offers twice on one
 * request, and whether a /healthz answer told the truth about the marketplace at that moment.
 */
import { parseCents } from '../src/domain/index.js';
import { balanceFromStore } from '../src/risk/index.js';
import type { SandboxHandle } from '../src/sandbox/index.js';
import { readStore } from '../src/store/index.js';
import { queryDatabase } from '../test/daemon/child-daemon.js';

/** The money the sandbox holds us to: pending offers' totals (each debited if accepted) and the balance now. */
export interface MarketMoney {
  pendingCents: number;
  balanceCents: number;
  offers: number;
  byStatus: Record<string, number>;
  /** Requests holding two or more offers of ours. */
  duplicateRequests: number;
}

export function marketMoney(sandbox: SandboxHandle): MarketMoney {
  const offers = sandbox.control.offers();
  const byStatus: Record<string, number> = {};
  const perRequest = new Map<number, number>();
  let pendingCents = 0;
  for (const offer of offers) {
    byStatus[offer.offer_status] = (byStatus[offer.offer_status] ?? 0) + 1;
    const requestId = offer.loan_request?.id ?? -1;
    perRequest.set(requestId, (perRequest.get(requestId) ?? 0) + 1);
    if (offer.offer_status === 'pending') pendingCents += parseCents(String(offer.loan_request?.total_amount ?? '0'));
  }
  return {
    pendingCents,
    balanceCents: sandbox.control.balance().balanceCents,
    offers: offers.length,
    byStatus,
    duplicateRequests: [...perRequest.values()].filter((n) => n > 1).length,
  };
}

/** What the stopped daemon's database says: the money its open offers reserve, the balance it knew, requests offered twice. */
export interface StoredMoney {
  reservedCents: number;
  balanceCents: number;
  /** Requests with two or more offer rows that were not refused. */
  duplicateRequests: number;
  /** Offers whose outcome was still unknown (or an intent) at the stop. */
  unsettled: number;
}

export async function storedMoney(dbFile: string, expiryMs: number): Promise<StoredMoney> {
  const money = await readStore(dbFile, (store) => ({
    reservedCents: store.offers.reserved({ nowMs: Date.now(), expiryMs, includeManual: true }),
    balanceCents: balanceFromStore(store),
  }));
  const twice = queryDatabase<{ n: number }>(
    dbFile,
    "SELECT COUNT(*) AS n FROM (SELECT loan_request_id FROM offers WHERE state <> 'refused' GROUP BY loan_request_id HAVING COUNT(*) > 1)",
  );
  const unsettled = queryDatabase<{ n: number }>(dbFile, "SELECT COUNT(*) AS n FROM offers WHERE state IN ('intent', 'unknown')");
  return { ...money, duplicateRequests: twice[0]?.n ?? 0, unsettled: unsettled[0]?.n ?? 0 };
}

/** When the marketplace failed every call on purpose (real ms since the epoch). */
export interface FailingStretch {
  fromMs: number;
  toMs: number;
}

/**
 * What /healthz ought to say at `atMs`: `bad` once the polls have had time to fail three times
 * in a row inside a failing stretch (counting from the later of its start and the daemon's),
 * `ok` once a poll has had time to succeed after it, and undefined in between (not judged).
 */
export function expectedHealth(
  atMs: number,
  daemonStartMs: number,
  stretches: readonly FailingStretch[],
  settle: { toBadMs: number; toOkMs: number },
): 'ok' | 'bad' | undefined {
  for (const stretch of stretches) {
    if (atMs >= stretch.fromMs && atMs < stretch.toMs) {
      return atMs >= Math.max(stretch.fromMs, daemonStartMs) + settle.toBadMs ? 'bad' : undefined;
    }
    if (atMs >= stretch.toMs && atMs < stretch.toMs + settle.toOkMs) return undefined;
  }
  return atMs >= daemonStartMs + settle.toOkMs ? 'ok' : undefined;
}
