import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hmacHex, signingText, signRequest, type SignatureMode } from '../../src/service/hmac-signer.js';

interface Vector {
  timestamp: number;
  secret: string;
  mode: SignatureMode;
  url: string;
  signed_text: string;
  hmac: string;
}

// Computed with openssl, not with the code under test (see the file's _comment).
const vectors = (JSON.parse(readFileSync(new URL('./fixtures/hmac-vectors.json', import.meta.url), 'utf8')) as { vectors: Vector[] })
  .vectors;

describe('hmac signer', () => {
  it.each(vectors)('matches openssl for $mode at $timestamp', (vector) => {
    expect(signingText(vector.mode, vector.timestamp, vector.secret, vector.url)).toBe(vector.signed_text);
    expect(hmacHex(vector.secret, vector.signed_text)).toBe(vector.hmac);
    const headers = signRequest({
      apiKey: 'key-1',
      secretKey: vector.secret,
      timestamp: vector.timestamp,
      mode: vector.mode,
      url: vector.url,
    });
    expect(headers).toEqual({ 'X-API-KEY': 'key-1', 'X-Timestamp': String(vector.timestamp), 'X-HMAC': vector.hmac });
  });

  it('writes the digest as lowercase hex', () => {
    expect(hmacHex('k', 'text')).toMatch(/^[0-9a-f]{64}$/);
  });
});
