/**
 * The `risk.protections` section: automatic pauses of new offers (like freqtrade's protections)
 * and the silent-webhooks and idle-cash alerts. Every protection is on by default with the values shown in
 * config/lendbot.yaml; `enabled: false` turns one off and lifts a pause it holds.
 */
import { z } from 'zod';

const hours = z.number().positive();

export const protectionSettingsSchema = z.strictObject({
  account_refusals: z
    .strictObject({
      enabled: z.boolean().default(true),
      count: z.number().int().positive().default(2).describe('account-level refusals within the window that pause offering'),
      window_minutes: z.number().positive().default(30),
      pause_hours: hours.default(6).describe('the pause lifts itself after this long (or at lendbot resume)'),
      patterns: z
        .array(z.string().min(1))
        .default([
          'borrower can not offer',
          'borrower cannot offer',
          'currently borrowing',
          'verified bank account',
          'bank account is not verified',
          'bank account not verified',
        ])
        .describe('texts (case-insensitive) of the service refusing the ACCOUNT, not one request (docs/marketplace.md 4.2 rules 2 and 9)'),
    })
    .prefault({}),
  default_spike: z
    .strictObject({
      enabled: z.boolean().default(true),
      window_days: z.number().positive().default(60).describe('loans created within this many days are measured'),
      min_loans: z.number().int().positive().default(10).describe('fewer loans than this are too few to judge'),
      max_default_share: z.number().min(0).max(1).default(0.3).describe('share of those loans in collection or default that pauses'),
      pause_hours: hours.default(24),
    })
    .prefault({}),
  drawdown: z
    .strictObject({
      enabled: z.boolean().default(true),
      window_days: z.number().positive().default(60),
      min_loans: z.number().int().positive().default(5),
      max_loss_share: z
        .number()
        .min(0)
        .max(1)
        .default(0.15)
        .describe('what the loans in collection or default still owe, each capped at its principal, as a share of the principal lent'),
      pause_hours: hours.default(24),
    })
    .prefault({}),
  calibration: z
    .strictObject({
      enabled: z
        .boolean()
        .default(true)
        .describe('alert when realised default of recent loans runs above the predicted default beyond noise'),
      pause: z.boolean().default(false).describe('also pause new offers while it does'),
      window_months: z
        .number()
        .int()
        .positive()
        .max(60)
        .default(12)
        .describe('loans created in this many months (this one included) are measured'),
      min_loans: z.number().int().positive().default(30).describe('fewer loans with a prediction than this are too few to judge'),
      pause_hours: hours.default(24),
    })
    .prefault({}),
  webhook_silence: z
    .strictObject({
      enabled: z.boolean().default(true),
      window_hours: hours.default(6),
      min_polled_requests: z
        .number()
        .int()
        .positive()
        .default(5)
        .describe('new requests found by polls, with no webhook at all, that raise the alert'),
    })
    .prefault({}),
  idle_cash: z
    .strictObject({
      enabled: z.boolean().default(true),
      max_idle_share: z
        .number()
        .min(0)
        .max(1)
        .default(0.5)
        .describe('share of the money (free cash / free + reserved + lent out) above which cash counts as idle too long'),
      for_hours: hours.default(72).describe('how long the share must stay above it before the alert; also the window its reasons cover'),
    })
    .prefault({}),
});

export type ProtectionSettings = z.infer<typeof protectionSettingsSchema>;
