import { describe, expect, it } from 'vitest';
import { REMOVED, withoutSecrets } from '../../src/operator/resources.js';

describe('the effective config resource', () => {
  it('removes URLs and secret-like values at any depth, and keeps the names of token variables', () => {
    const config = {
      db: 'data/lendbot.db',
      notifications: { url: 'https://hooks.example.com/T0/secret-path?token=abc', retries: 3 },
      ops: { host: '127.0.0.1', tokens: [{ name: 'claude', env: 'LENDBOT_TOKEN_CLAUDE' }] },
      deep: [{ api_key: 'k', Secret: 's', password: 'p', keep: 1 }],
    };
    expect(withoutSecrets(config)).toEqual({
      db: 'data/lendbot.db',
      notifications: { url: REMOVED, retries: 3 },
      ops: { host: '127.0.0.1', tokens: [{ name: 'claude', env: 'LENDBOT_TOKEN_CLAUDE' }] },
      deep: [{ api_key: REMOVED, Secret: REMOVED, password: REMOVED, keep: 1 }],
    });
  });
});
