/**
 * The /metrics series of calibration by strategy and month of origination, and of the instalment
 * hazard (docs/operations.md, "Calibration"): set from the status report's calibration block at
 * each scrape, so /metrics says what `lendbot status` says. Bounded: strategies × the window's
 * months (and "all"), and the months of age of the longest term.
 */
import type { Gauge } from 'prom-client';
import type { CalibrationStatus } from './calibration.js';

type MakeGauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) => Gauge<L>;
type VintageKey = 'strategy' | 'vintage';

export interface CalibrationDetailGauges {
  observe(status: CalibrationStatus): void;
}

/** Registers the gauges through `gauge` (the daemon's registry). */
export function calibrationDetailGauges(gauge: MakeGauge): CalibrationDetailGauges {
  const labels = ['strategy', 'vintage'] as const;
  const vintage = {
    loans: gauge('lendbot_vintage_loans', 'loans with a predicted default, by strategy and month made ("all": the window)', labels),
    predicted: gauge('lendbot_vintage_default_predicted', 'mean predicted default over the whole term, by strategy and month made', labels),
    expected: gauge('lendbot_vintage_default_expected_by_now', "default the predictions expect by the loans' age", labels),
    realised: gauge('lendbot_vintage_default_realised', 'realised default so far (collection, default or a missed payment)', labels),
    low: gauge('lendbot_vintage_default_realised_low', 'low end of the 95 % interval of realised default', labels),
    high: gauge('lendbot_vintage_default_realised_high', 'high end of the 95 % interval of realised default', labels),
    age: gauge('lendbot_vintage_age_months', 'mean age of the loans, in months', labels),
    elapsed: gauge('lendbot_vintage_term_elapsed', "share of the loans' terms gone by (under 0.25: too early to judge)", labels),
  };
  const age = ['age_month'] as const;
  const hazard = {
    due: gauge('lendbot_instalments_due', 'instalments fallen due, by month of loan age (loans with no missed instalment before)', age),
    late: gauge('lendbot_instalments_late', 'of those, instalments paid late or unpaid past the due date', age),
    missed: gauge('lendbot_instalments_missed', 'of those, instalments missed', age),
    hazard: gauge('lendbot_instalment_hazard', 'missed / due: the monthly hazard of default, by month of loan age', age),
    expected: gauge('lendbot_instalment_hazard_expected', "the monthly hazard the loans' predictions expect", age),
  };
  const set = (g: Gauge<VintageKey>, key: Record<VintageKey, string>, value: number | null): void => {
    if (value !== null) g.set(key, value);
  };
  return {
    observe(status) {
      for (const g of [...Object.values(vintage), ...Object.values(hazard)]) g.reset();
      for (const strategy of status.strategies) {
        for (const row of [...strategy.vintages, strategy.pooled]) {
          const key = { strategy: strategy.strategy, vintage: row.vintage };
          vintage.loans.set(key, row.loans);
          set(vintage.predicted, key, row.predicted);
          set(vintage.expected, key, row.expectedByNow);
          set(vintage.realised, key, row.realised);
          set(vintage.low, key, row.low);
          set(vintage.high, key, row.high);
          set(vintage.age, key, row.ageMonths);
          set(vintage.elapsed, key, row.termElapsed);
        }
      }
      for (const row of status.hazard) {
        const key = { age_month: String(row.ageMonth) };
        hazard.due.set(key, row.due);
        hazard.late.set(key, row.late);
        hazard.missed.set(key, row.missed);
        if (row.hazard !== null) hazard.hazard.set(key, row.hazard);
        if (row.expected !== null) hazard.expected.set(key, row.expected);
      }
    },
  };
}
