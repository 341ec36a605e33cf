/**
 * Where the marketplace is and how to talk to it, read from the environment (LENDBOT_*).
 * Secrets only ever come from the environment, never from files in the repo.
 */
import { z } from 'zod';
import { DEFAULT_CLOCK_SKEW, type ClockSkewSettings } from './clock-skew.js';
import { ConfigurationError } from '../domain/index.js';
import { SIGNATURE_MODES, type SignatureMode } from './hmac-signer.js';
import type { RetrySettings } from './http-transport.js';
import { NUMERIC_RANGE_FORMATS, type NumericRangeFormat } from './numeric-filters.js';
import { refusalTextsSchema, type RefusalTextRule } from './refusal-texts.js';
import { DEFAULT_RESPONSE_LIMITS, RESPONSE_KINDS, type ResponseLimits } from './response-limits.js';
import { shownUrl } from './shown-text.js';

export interface ServiceConfig {
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  bearerToken?: string | undefined;
  signatureMode: SignatureMode;
  numericRangeFormat: NumericRangeFormat;
  timeoutMs: number;
  retry: RetrySettings;
  /** Correction of our clock from the service's Date header; DEFAULT_CLOCK_SKEW when absent. */
  clockSkew?: ClockSkewSettings;
  /** Refusal texts beyond the built-in table (config `service.refusal_texts`), checked first. */
  refusalTexts?: readonly RefusalTextRule[] | undefined;
  /** The largest answer read, per kind of endpoint (config `service.max_response_bytes`). */
  maxResponseBytes?: ResponseLimits | undefined;
}

export const DEFAULT_RETRY: RetrySettings = {
  readRetries: 4,
  paidRetries: 0,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};

const DEFAULT_TIMEOUT_MS = 20_000;

/** The environment variables the client reads, with what each is for (shown in --help). */
export const SERVICE_ENV_HELP: ReadonlyArray<readonly [string, string]> = [
  ['LENDBOT_BASE_URL', 'marketplace base address, e.g. https://api.example.com'],
  ['LENDBOT_API_KEY', 'API key issued on registration'],
  ['LENDBOT_SECRET_KEY', 'secret key issued on registration (signs every request)'],
  ['LENDBOT_BEARER_TOKEN', 'optional; sent as Authorization: Bearer on the fund endpoint only'],
  ['LENDBOT_SIGNATURE_MODE', 'timestamp-secret (default, the documented rule) or timestamp-url'],
  ['LENDBOT_NUMERIC_RANGE_FORMAT', 'min-max-params (default), comma or dash: how range filters are written'],
  ['LENDBOT_HTTP_TIMEOUT_MS', `per-attempt timeout (default ${DEFAULT_TIMEOUT_MS})`],
  ['LENDBOT_READ_RETRIES', `extra attempts for reads (default ${DEFAULT_RETRY.readRetries})`],
  ['LENDBOT_PROVIDER_RETRIES', 'extra attempts for the paid provider endpoint (default 0)'],
  [
    'LENDBOT_CLOCK_SKEW_CORRECTION',
    'on (default) or off: after "Timestamp out of range", sign with the service\'s time from its Date header',
  ],
  ['LENDBOT_MAX_CLOCK_SKEW_SECONDS', `largest clock skew corrected, either way (default ${DEFAULT_CLOCK_SKEW.maxSkewSeconds})`],
];

/** What a limit of `service.max_response_bytes` holds, for the schema's descriptions. */
const RESPONSE_KIND_HELP: Record<keyof ResponseLimits, string> = {
  lists: 'a page of a list (loan requests, loans, transfers, history) or the payments of a loan',
  banking_data: "a loan request's banking data, transactions included",
  provider_results: "a score provider's answer",
  offers: 'the answer to make_offer or fund',
};

const responseLimitsShape = Object.fromEntries(
  RESPONSE_KINDS.map((kind) => [
    kind,
    z
      .number()
      .int()
      .min(1024)
      .default(DEFAULT_RESPONSE_LIMITS[kind])
      .describe(`bytes of ${RESPONSE_KIND_HELP[kind]}, on the wire and once decompressed`),
  ]),
) as { [K in keyof ResponseLimits]: z.ZodDefault<z.ZodNumber> };

/**
 * The `service:` section of config/lendbot.yaml (documented inline there): how lendbot reads the
 * marketplace's answers. Address and keys come from the environment only.
 */
export const serviceSectionSchema = z.strictObject({
  refusal_texts: refusalTextsSchema,
  max_response_bytes: z
    .strictObject(responseLimitsShape)
    .prefault({})
    .describe('the largest answer read per kind of endpoint; a larger one is RESPONSE_TOO_LARGE'),
});
export type ServiceSection = z.infer<typeof serviceSectionSchema>;

/** The client settings the config file's `service:` section holds, to merge over serviceConfigFromEnv. */
export function serviceSettingsFromSection(section: ServiceSection): Pick<ServiceConfig, 'refusalTexts' | 'maxResponseBytes'> {
  return { refusalTexts: section.refusal_texts, maxResponseBytes: section.max_response_bytes };
}

type Env = Record<string, string | undefined>;

/** Reads the service settings; a missing or bad value is a ConfigurationError naming its variable. */
export function serviceConfigFromEnv(env: Env = process.env): ServiceConfig {
  const baseUrl = required(env, 'LENDBOT_BASE_URL');
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new ConfigurationError(`LENDBOT_BASE_URL is not an http(s) URL: ${shownUrl(baseUrl)}`);
  }
  const bearerToken = env.LENDBOT_BEARER_TOKEN?.trim();
  return {
    baseUrl,
    apiKey: required(env, 'LENDBOT_API_KEY'),
    secretKey: required(env, 'LENDBOT_SECRET_KEY'),
    bearerToken: bearerToken === '' ? undefined : bearerToken,
    signatureMode: oneOf(env, 'LENDBOT_SIGNATURE_MODE', SIGNATURE_MODES, 'timestamp-secret'),
    numericRangeFormat: oneOf(env, 'LENDBOT_NUMERIC_RANGE_FORMAT', NUMERIC_RANGE_FORMATS, 'min-max-params'),
    timeoutMs: wholeNumber(env, 'LENDBOT_HTTP_TIMEOUT_MS', DEFAULT_TIMEOUT_MS),
    retry: {
      ...DEFAULT_RETRY,
      readRetries: wholeNumber(env, 'LENDBOT_READ_RETRIES', DEFAULT_RETRY.readRetries),
      paidRetries: wholeNumber(env, 'LENDBOT_PROVIDER_RETRIES', DEFAULT_RETRY.paidRetries),
    },
    clockSkew: {
      correct: oneOf(env, 'LENDBOT_CLOCK_SKEW_CORRECTION', ['on', 'off'], 'on') === 'on',
      maxSkewSeconds: wholeNumber(env, 'LENDBOT_MAX_CLOCK_SKEW_SECONDS', DEFAULT_CLOCK_SKEW.maxSkewSeconds),
    },
  };
}

function required(env: Env, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new ConfigurationError(`${name} is not set; export it (see README, "Credentials")`);
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = env[name]?.trim();
  if (!value) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigurationError(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

function wholeNumber(env: Env, name: string, fallback: number): number {
  const value = env[name]?.trim();
  if (!value) return fallback;
  if (!/^\d+$/.test(value)) throw new ConfigurationError(`${name} must be a whole number (got "${value}")`);
  return Number(value);
}
