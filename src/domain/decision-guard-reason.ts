/**
 * The guard's refusals as values (src/risk/check-offer.ts, check-funding.ts, arm-share-rule.ts):
 * `guardCode` is the refusal code stored beside the decision, the rest its figures as the guard
 * formats them. `at: 'funding'` marks the rule asked before funding an accepted offer by hand.
 */

/** The balance rule's figures, at offering or at funding: free cash is balance - reserved - reserve. */
export interface BalanceFigures {
  balance: string;
  reserved: string;
  reserve: string;
  total: string;
  /** True when the free cash equals the total (refused too: it must exceed it). */
  equal: boolean;
}

/** One guard rule's refusal and its figures. */
export type GuardRule =
  | { guardCode: 'kill_switch'; file?: string }
  | { guardCode: 'paused'; why: string }
  | { guardCode: 'invalid_total'; at: 'offer'; total: string }
  /** At funding the total is integer cents. */
  | { guardCode: 'invalid_total'; at: 'funding'; totalCents: string }
  | { guardCode: 'rate_out_of_bounds'; rate: string; min: string; max: string }
  | { guardCode: 'rate_above_max'; rate: string; max: string }
  /** `allowed` as listed in the reason ("0, 1, 2", or "none"). */
  | { guardCode: 'risk_level_not_allowed'; level: string; name: string; allowed: string }
  | ({ guardCode: 'insufficient_balance'; at: 'offer' | 'funding' } & BalanceFigures)
  | { guardCode: 'max_open_exposure'; exposure: string; total: string; max: string }
  | { guardCode: 'max_per_borrower'; borrower: string; exposure: string; total: string; max: string }
  /** `share` and `max` are percent with one decimal, without their sign ("35.4"). */
  | { guardCode: 'max_share_by_risk_level'; level: string; exposure: string; total: string; share: string; base: string; max: string }
  | { guardCode: 'max_offers_per_day'; today: string; max: string }
  | { guardCode: 'max_amount_per_day'; today: string; total: string; max: string }
  /** `share` is whole percent without its sign ("40"). */
  | { guardCode: 'arm_share'; arm: string; committed: string; total: string; share: string; capital: string };

export type GuardReason = { code: 'guard' } & GuardRule;

/** The guard's reason for a rule's refusal. */
export function guardReason(rule: GuardRule): GuardReason {
  return { code: 'guard', ...rule };
}

/** The guard's stored text: "guard " and the rule's figures. */
export function guardReasonText(reason: GuardReason): string {
  return `guard ${ruleText(reason)}`;
}

function balanceText(figures: BalanceFigures): string {
  const { balance, reserved, reserve, total } = figures;
  return `balance ${balance} - reserved ${reserved} - reserve ${reserve} ${figures.equal ? `= total ${total}, must exceed` : `< total ${total}`}`;
}

function ruleText(reason: GuardReason): string {
  switch (reason.guardCode) {
    case 'kill_switch':
      return reason.file === undefined ? 'kill switch on (config)' : `kill switch on (file ${reason.file})`;
    case 'paused':
      return `paused: ${reason.why}`;
    case 'invalid_total':
      return reason.at === 'offer'
        ? `total_amount ${reason.total} is not a positive amount`
        : `funding total ${reason.totalCents} cents is not a positive amount`;
    case 'rate_out_of_bounds':
      return `rate ${reason.rate} outside ${reason.min} to ${reason.max}`;
    case 'rate_above_max':
      return `rate ${reason.rate} > max_interest_rate ${reason.max}`;
    case 'risk_level_not_allowed':
      return `risk level ${reason.level} (${reason.name}) not allowed (allowed ${reason.allowed})`;
    case 'insufficient_balance':
      return `${reason.at === 'funding' ? 'funding ' : ''}${balanceText(reason)}`;
    case 'max_open_exposure':
      return `exposure ${reason.exposure} + total ${reason.total} > max ${reason.max}`;
    case 'max_per_borrower':
      return `borrower ${reason.borrower} exposure ${reason.exposure} + total ${reason.total} > max ${reason.max}`;
    case 'max_share_by_risk_level':
      return `risk level ${reason.level} exposure ${reason.exposure} + total ${reason.total} = ${reason.share}% of ${reason.base} > max ${reason.max}%`;
    case 'max_offers_per_day':
      return `offers today ${reason.today} >= max ${reason.max}`;
    case 'max_amount_per_day':
      return `amount today ${reason.today} + total ${reason.total} > max ${reason.max}`;
    case 'arm_share':
      return `arm ${reason.arm} committed ${reason.committed} + total ${reason.total} > share ${reason.share}% of capital ${reason.capital}`;
  }
}
