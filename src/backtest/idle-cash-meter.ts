/**
 * Where a backtest's money sat over time (the backtest's idle-cash figure; the live daemon's is
 * measured elsewhere): free cash (idle: nothing lent and no open offer holds it), cash reserved
 * by open offers, and principal lent out. Time-weighted shares of all three, so a run that kept
 * most of its money idle says so even when the money it lent earned well.
 */
import type { SimLedger } from './sim-ledger.js';

/** Time-weighted shares of the money (cash + principal lent); they add up to 1 with capitalUtilization. */
export interface IdleCashShares {
  /** Free cash: neither lent nor held by an open offer. */
  idleShare: number;
  /** Cash held by open offers until they are accepted, lost or expire. */
  reservedShare: number;
  /**
   * idleShare from the first request to the last one only: after it, repaid money has no request
   * to go to, so a short recording of long loans reads as mostly idle over the whole period.
   */
  idleShareWhileRequests: number;
}

export class IdleCashMeter {
  private freeIntegral = 0;
  private reservedIntegral = 0;
  private lentIntegral = 0;
  /** The free and total integrals when the last request was seen (null until then). */
  private atLastRequest: { free: number; total: number } | null = null;

  /** The ledger stayed as it is for `dtMs`. */
  accrue(ledger: Pick<SimLedger, 'balanceCents' | 'reservedCents' | 'deployedCents'>, dtMs: number): void {
    const cash = Math.max(0, ledger.balanceCents);
    const reserved = Math.min(cash, Math.max(0, ledger.reservedCents));
    this.freeIntegral += (cash - reserved) * dtMs;
    this.reservedIntegral += reserved * dtMs;
    this.lentIntegral += Math.max(0, ledger.deployedCents) * dtMs;
  }

  /** The last request has been seen: the window of idleShareWhileRequests closes here. */
  requestsEnded(): void {
    this.atLastRequest = { free: this.freeIntegral, total: this.total() };
  }

  shares(): IdleCashShares {
    const total = this.total();
    const window = this.atLastRequest ?? { free: this.freeIntegral, total };
    const share = (part: number, whole: number): number => (whole > 0 ? part / whole : 0);
    return {
      idleShare: share(this.freeIntegral, total),
      reservedShare: share(this.reservedIntegral, total),
      idleShareWhileRequests: share(window.free, window.total),
    };
  }

  private total(): number {
    return this.freeIntegral + this.reservedIntegral + this.lentIntegral;
  }
}
