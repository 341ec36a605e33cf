import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/domain/index.js';
import { serviceConfigFromEnv } from '../../src/service/index.js';

const base = { LENDBOT_BASE_URL: 'https://api.example.com', LENDBOT_API_KEY: 'k', LENDBOT_SECRET_KEY: 's' };

describe('service settings from the environment', () => {
  it('reads the credentials and applies defaults', () => {
    const config = serviceConfigFromEnv(base);
    expect(config).toMatchObject({
      baseUrl: 'https://api.example.com',
      apiKey: 'k',
      secretKey: 's',
      bearerToken: undefined,
      signatureMode: 'timestamp-secret',
      numericRangeFormat: 'min-max-params',
      timeoutMs: 20_000,
    });
    expect(config.retry.paidRetries).toBe(0);
    expect(config.clockSkew).toEqual({ correct: true, maxSkewSeconds: 3600 });
  });

  it('reads the clock skew settings', () => {
    expect(
      serviceConfigFromEnv({ ...base, LENDBOT_CLOCK_SKEW_CORRECTION: 'off', LENDBOT_MAX_CLOCK_SKEW_SECONDS: '600' }).clockSkew,
    ).toEqual({
      correct: false,
      maxSkewSeconds: 600,
    });
    expect(() => serviceConfigFromEnv({ ...base, LENDBOT_CLOCK_SKEW_CORRECTION: 'maybe' })).toThrow(
      'LENDBOT_CLOCK_SKEW_CORRECTION must be one of on, off (got "maybe")',
    );
    expect(() => serviceConfigFromEnv({ ...base, LENDBOT_MAX_CLOCK_SKEW_SECONDS: '1h' })).toThrow(
      'LENDBOT_MAX_CLOCK_SKEW_SECONDS must be a whole number (got "1h")',
    );
  });

  it.each(['LENDBOT_BASE_URL', 'LENDBOT_API_KEY', 'LENDBOT_SECRET_KEY'])('names %s when it is missing', (name) => {
    const env: Record<string, string | undefined> = { ...base, [name]: '  ' };
    expect(() => serviceConfigFromEnv(env)).toThrow(new ConfigurationError(`${name} is not set; export it (see README, "Credentials")`));
  });

  it('refuses values it does not know', () => {
    expect(() => serviceConfigFromEnv({ ...base, LENDBOT_SIGNATURE_MODE: 'md5' })).toThrow(
      'LENDBOT_SIGNATURE_MODE must be one of timestamp-secret, timestamp-url (got "md5")',
    );
    expect(() => serviceConfigFromEnv({ ...base, LENDBOT_BASE_URL: 'ftp://x' })).toThrow('LENDBOT_BASE_URL is not an http(s) URL: ftp://x');
    expect(() => serviceConfigFromEnv({ ...base, LENDBOT_READ_RETRIES: '-1' })).toThrow(
      'LENDBOT_READ_RETRIES must be a whole number (got "-1")',
    );
  });

  it('takes the optional settings', () => {
    const config = serviceConfigFromEnv({
      ...base,
      LENDBOT_BEARER_TOKEN: 'tok',
      LENDBOT_SIGNATURE_MODE: 'timestamp-url',
      LENDBOT_NUMERIC_RANGE_FORMAT: 'dash',
      LENDBOT_PROVIDER_RETRIES: '2',
    });
    expect(config).toMatchObject({ bearerToken: 'tok', signatureMode: 'timestamp-url', numericRangeFormat: 'dash' });
    expect(config.retry.paidRetries).toBe(2);
  });
});
