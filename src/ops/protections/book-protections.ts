/**
 * The protections that watch the lender's own book: a default spike (too large a share of the
 * recent loans in collection or default) and a drawdown (too large a share of the principal lent
 * recently still owed by those loans). Both need a minimum sample, so one default among three
 * loans does not pause the bot.
 *
 * They trigger on NEW evidence only: the loans behind a pause are remembered, so after the pause
 * ends (its time, or `lendbot resume`) the same loans do not pause again; another loan turning
 * troubled does, if the share is still over the limit. Without this, a resume would be undone by
 * the next minute's check.
 */
import type { ProtectionSettings } from '../../risk/index.js';
import { formatCents } from '../../domain/index.js';
import type { StoredLoan } from '../../store/index.js';
import { vintageHealth, type VintageHealth } from './loan-vintage.js';
import { DAY_MS } from '../../clock/time-constants.js';

export interface BookTrigger {
  kind: 'default_spike' | 'drawdown';
  /** The figures, for the pause's reason. */
  figures: string;
  pauseHours: number;
  /** The troubled loans behind it, remembered so they do not trigger again. */
  troubledLoanIds: number[];
}

/** The first book protection that triggers now, if any. */
export function bookTrigger(
  loans: readonly StoredLoan[],
  nowMs: number,
  settings: Pick<ProtectionSettings, 'default_spike' | 'drawdown'>,
  alreadyPausedFor: ReadonlySet<number>,
): BookTrigger | undefined {
  const isNew = (health: VintageHealth): boolean => health.troubledLoanIds.some((id) => !alreadyPausedFor.has(id));

  const spike = settings.default_spike;
  if (spike.enabled) {
    const health = vintageHealth(loans, nowMs - spike.window_days * DAY_MS);
    const share = health.loans === 0 ? 0 : health.troubled / health.loans;
    if (health.loans >= spike.min_loans && share > spike.max_default_share && isNew(health)) {
      return {
        kind: 'default_spike',
        figures: `${health.troubled} of ${health.loans} loans of the last ${spike.window_days} days in collection or default (${percent(share)} > ${percent(spike.max_default_share)})`,
        pauseHours: spike.pause_hours,
        troubledLoanIds: health.troubledLoanIds,
      };
    }
  }

  const drawdown = settings.drawdown;
  if (drawdown.enabled) {
    const health = vintageHealth(loans, nowMs - drawdown.window_days * DAY_MS);
    const share = health.principalCents === 0 ? 0 : health.unrecoveredCents / health.principalCents;
    if (health.loans >= drawdown.min_loans && share > drawdown.max_loss_share && isNew(health)) {
      return {
        kind: 'drawdown',
        figures: `loans in collection or default still owe ${formatCents(health.unrecoveredCents)} of ${formatCents(health.principalCents)} lent in the last ${drawdown.window_days} days (${percent(share)} > ${percent(drawdown.max_loss_share)})`,
        pauseHours: drawdown.pause_hours,
        troubledLoanIds: health.troubledLoanIds,
      };
    }
  }
  return undefined;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}
