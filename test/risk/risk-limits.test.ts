import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RISK_LIMITS, protectionSettingsSchema, riskLimitsSchema } from '../../src/risk/index.js';

describe('riskLimitsSchema', () => {
  it('fills conservative defaults: the money caps as shares of the capital', () => {
    expect(DEFAULT_RISK_LIMITS).toEqual({
      minCashReserveCents: 0,
      allowedRiskLevels: [0, 1, 2],
      maxOpenExposureCents: undefined,
      maxOpenExposureShare: 0.9,
      maxPerBorrowerCents: undefined,
      maxPerBorrowerShare: 0.2,
      maxShareByRiskLevel: undefined,
      maxOffersPerDay: undefined,
      maxAmountPerDayCents: undefined,
      maxAmountPerDayShare: 0.5,
      killSwitch: false,
      killSwitchFile: undefined,
      offerExpiryMs: 72 * 3_600_000,
      reserveManualOffers: true,
      protections: protectionSettingsSchema.parse({}),
    });
  });

  it('turns a default cap off with null', () => {
    const limits = riskLimitsSchema.parse({ max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null });
    expect(limits).toMatchObject({ maxOpenExposureCents: undefined, maxPerBorrowerCents: undefined, maxAmountPerDayCents: undefined });
    expect(limits.maxOpenExposureShare ?? limits.maxPerBorrowerShare ?? limits.maxAmountPerDayShare).toBeUndefined();
  });

  it('reads each cap as USD or as a share of the capital, never both', () => {
    const limits = riskLimitsSchema.parse(
      parseYaml('max_open_exposure: { share: 0.75 }\nmax_per_borrower: 1000\nmax_amount_per_day: { share: 1 }\n'),
    );
    expect(limits).toMatchObject({
      maxOpenExposureCents: undefined,
      maxOpenExposureShare: 0.75,
      maxPerBorrowerCents: 100_000,
      maxAmountPerDayCents: undefined,
      maxAmountPerDayShare: 1,
    });
    expect(limits.maxPerBorrowerShare).toBeUndefined();
  });

  it('says what a bad cap lacks and names the three forms', () => {
    const messages = (input: unknown) =>
      riskLimitsSchema.safeParse(input).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    const forms = 'expected a USD amount (10000), a share of the capital ({ share: 0.9 }) or null (no cap)';
    expect(messages({ max_open_exposure: { share: 1.5 } })).toEqual([
      `max_open_exposure: share: a share is at most 1 (the whole capital); ${forms}`,
    ]);
    expect(messages({ max_per_borrower: { share: 0 } })).toEqual([
      `max_per_borrower: share: a share is above 0 (null turns the cap off); ${forms}`,
    ]);
    expect(messages({ max_per_borrower: { shares: 0.2 } })).toEqual([`max_per_borrower: unknown key "shares"; ${forms}`]);
    expect(messages({ max_amount_per_day: 'lots' })).toEqual([
      `max_amount_per_day: expected a decimal amount such as "1250.00" (got "lots"); ${forms}`,
    ]);
    expect(messages({ max_amount_per_day: -5 })).toEqual([`max_amount_per_day: must not be negative; ${forms}`]);
  });

  it('reads a full YAML section into cents and milliseconds', () => {
    const yaml = `
min_cash_reserve: "250.50"
allowed_risk_levels: [2, 0, 1, 0]
max_open_exposure: 10000
max_per_borrower: 750.25
max_share_by_risk_level:
  2: 0.3
  0: 1
max_offers_per_day: 40
max_amount_per_day: "5000.00"
kill_switch: true
kill_switch_file: data/STOP
offer_expiry_hours: 1.5
`;
    expect(riskLimitsSchema.parse(parseYaml(yaml))).toEqual({
      minCashReserveCents: 25050,
      allowedRiskLevels: [0, 1, 2],
      maxOpenExposureCents: 1_000_000,
      maxPerBorrowerCents: 75025,
      maxShareByRiskLevel: { 0: 1, 2: 0.3 },
      maxOffersPerDay: 40,
      maxAmountPerDayCents: 500_000,
      killSwitch: true,
      killSwitchFile: 'data/STOP',
      offerExpiryMs: 5_400_000,
      reserveManualOffers: true,
      protections: protectionSettingsSchema.parse({}),
    });
  });

  it('reports every problem with its path', () => {
    const result = riskLimitsSchema.safeParse({
      min_cash_reserve: '-5.00',
      allowed_risk_levels: [5],
      max_share_by_risk_level: { 7: 0.5 },
      kill_swich: true,
      offer_expiry_hours: 0,
    });
    expect(result.success).toBe(false);
    const issues = result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(issues).toEqual(
      expect.arrayContaining([
        'min_cash_reserve: must not be negative',
        'allowed_risk_levels.0: Too big: expected number to be <=4',
        'offer_expiry_hours: Too small: expected number to be >0',
        ': Unrecognized key: "kill_swich"',
      ]),
    );
    expect(issues?.some((issue) => issue.startsWith('max_share_by_risk_level'))).toBe(true);
  });

  it('needs max_open_exposure when shares per risk level are set', () => {
    const result = riskLimitsSchema.safeParse({ max_share_by_risk_level: { 2: 0.3 }, max_open_exposure: null });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['max_share_by_risk_level', 'needs max_open_exposure: shares are of the exposure budget'],
    ]);
  });

  it('produces a JSON Schema of the YAML shape for editors', () => {
    const schema = z.toJSONSchema(riskLimitsSchema, { io: 'input' }) as {
      properties: Record<string, unknown>;
      additionalProperties: unknown;
    };
    expect(Object.keys(schema.properties)).toEqual([
      'min_cash_reserve',
      'allowed_risk_levels',
      'max_open_exposure',
      'max_per_borrower',
      'max_share_by_risk_level',
      'max_offers_per_day',
      'max_amount_per_day',
      'kill_switch',
      'kill_switch_file',
      'offer_expiry_hours',
      'reserve_manual_offers',
      'protections',
      'split',
    ]);
    expect(schema.additionalProperties).toBe(false);
  });

  it('reads a live split, and refuses one arm twice or shares above 1', () => {
    expect(riskLimitsSchema.parse({ split: { strategies: ['a', 'b'] } }).split).toEqual({ strategies: ['a', 'b'], shares: [0.5, 0.5] });
    const messages = (input: unknown) =>
      riskLimitsSchema.safeParse(input).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(messages({ split: { strategies: ['a', 'a'] } })).toEqual(['split.strategies: needs two different strategies']);
    expect(messages({ split: { strategies: ['a', 'b'], shares: [0.6, 0.5] } })).toEqual(['split.shares: the shares sum to more than 1']);
  });
});
