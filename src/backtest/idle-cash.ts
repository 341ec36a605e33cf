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
}

export class IdleCashMeter {
  private freeIntegral = 0;
  private reservedIntegral = 0;
  private lentIntegral = 0;

  /** The ledger stayed as it is for `dtMs`. */
  accrue(ledger: Pick<SimLedger, 'balanceCents' | 'reservedCents' | 'deployedCents'>, dtMs: number): void {
    const cash = Math.max(0, ledger.balanceCents);
    const reserved = Math.min(cash, Math.max(0, ledger.reservedCents));
    this.freeIntegral += (cash - reserved) * dtMs;
    this.reservedIntegral += reserved * dtMs;
    this.lentIntegral += Math.max(0, ledger.deployedCents) * dtMs;
  }

  shares(): IdleCashShares {
    const total = this.freeIntegral + this.reservedIntegral + this.lentIntegral;
    if (!(total > 0)) return { idleShare: 0, reservedShare: 0 };
    return { idleShare: this.freeIntegral / total, reservedShare: this.reservedIntegral / total };
  }
}
