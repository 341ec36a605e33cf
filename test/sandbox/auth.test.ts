import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarketplaceClient, DEFAULT_RETRY, hmacHex, ServiceError } from '../../src/service/index.js';
import { startFixture, type Fixture } from './sandbox-fixture.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());

const nowSeconds = (): number => Math.floor(fx.sandbox.clock.now() / 1000);

async function get(headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${fx.sandbox.url}/api/v3/loan_requests/`, { headers });
  return { status: response.status, body: await response.json() };
}

function signed(overrides: { key?: string; secret?: string; timestamp?: number } = {}): Record<string, string> {
  const timestamp = overrides.timestamp ?? nowSeconds();
  const secret = overrides.secret ?? fx.sandbox.credentials.secretKey;
  return {
    'X-API-KEY': overrides.key ?? fx.sandbox.credentials.apiKey,
    'X-Timestamp': String(timestamp),
    'X-HMAC': hmacHex(secret, `${timestamp}:${secret}`),
  };
}

describe('authentication (spec part 5, texts of part 7)', () => {
  it('accepts a request signed over <timestamp>:<secret>', async () => {
    expect((await get(signed())).status).toBe(200);
  });

  it('accepts the timestamp-url signing mode too', async () => {
    const timestamp = nowSeconds();
    const url = `${fx.sandbox.url}/api/v3/loan_requests/`;
    const headers = {
      'X-API-KEY': fx.sandbox.credentials.apiKey,
      'X-Timestamp': String(timestamp),
      'X-HMAC': hmacHex(fx.sandbox.credentials.secretKey, `${timestamp}${url}`),
    };
    expect((await get(headers)).status).toBe(200);
  });

  it('answers 403 with the exact texts', async () => {
    expect(await get({})).toEqual({ status: 403, body: { detail: 'Authentication credentials were not provided.' } });
    const { 'X-HMAC': _omitted, ...noHmac } = signed();
    expect(await get(noHmac)).toEqual({ status: 403, body: { detail: 'Authentication credentials were not provided.' } });
    expect(await get(signed({ key: 'nope' }))).toEqual({ status: 403, body: { detail: 'Invalid API Key' } });
    expect(await get(signed({ secret: 'wrong' }))).toEqual({ status: 403, body: { detail: 'Invalid HMAC' } });
    expect(await get(signed({ timestamp: nowSeconds() - 301 }))).toEqual({ status: 403, body: { detail: 'Timestamp out of range' } });
    expect(await get(signed({ timestamp: nowSeconds() + 301 }))).toEqual({ status: 403, body: { detail: 'Timestamp out of range' } });
    expect((await get(signed({ timestamp: nowSeconds() - 299 }))).status).toBe(200);
  });

  it('takes only lowercase hex (spec 5.3): the same digest in uppercase is a wrong signature', async () => {
    const headers = signed();
    expect(headers['X-HMAC']).toMatch(/^[0-9a-f]{64}$/);
    const upper = { ...headers, 'X-HMAC': (headers['X-HMAC'] ?? '').toUpperCase() };
    expect(upper['X-HMAC']).not.toBe(headers['X-HMAC']);
    expect(await get(upper)).toEqual({ status: 403, body: { detail: 'Invalid HMAC' } });
    const timestamp = nowSeconds();
    const url = `${fx.sandbox.url}/api/v3/loan_requests/`;
    const withUrl = hmacHex(fx.sandbox.credentials.secretKey, `${timestamp}${url}`).toUpperCase();
    const urlHeaders = { 'X-API-KEY': fx.sandbox.credentials.apiKey, 'X-Timestamp': String(timestamp), 'X-HMAC': withUrl };
    expect(await get(urlHeaders)).toEqual({ status: 403, body: { detail: 'Invalid HMAC' } });
    // The project's client signs in lowercase, so its requests pass.
    expect((await fx.client.listLoanRequests()).items).toEqual([]);
  });

  it('maps to the client error codes', async () => {
    const client = createMarketplaceClient(
      {
        baseUrl: fx.sandbox.url,
        apiKey: 'unknown',
        secretKey: 'x',
        signatureMode: 'timestamp-secret',
        numericRangeFormat: 'min-max-params',
        timeoutMs: 5000,
        retry: DEFAULT_RETRY,
      },
      { clock: fx.sandbox.clock },
    );
    const error = await client.listLoanRequests().catch((e: unknown) => e);
    client.close();
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('AUTH_INVALID_API_KEY');
    expect((error as ServiceError).status).toBe(403);
  });

  it('leaves the control API open', async () => {
    const response = await fetch(`${fx.sandbox.url}/_sandbox/state`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ now: '2026-01-01T00:00:00Z', shape: 'classic', balanceCents: 0, availableCents: 0 });
  });
});
