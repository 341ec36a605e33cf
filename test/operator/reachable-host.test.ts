import { describe, expect, it } from 'vitest';
import { reachableHost } from '../../src/operator/operator-listener.js';

describe('reachableHost', () => {
  it('reaches a wildcard bind on loopback and brackets IPv6, as every URL lendbot prints for its listeners', () => {
    expect(reachableHost('0.0.0.0')).toBe('127.0.0.1');
    // The daemon's webhook URL wrote http://:::8080/webhooks for a listener bound to "::".
    expect(reachableHost('::')).toBe('127.0.0.1');
    expect(reachableHost('::1')).toBe('[::1]');
    expect(reachableHost('[::1]')).toBe('[::1]');
    expect(reachableHost('127.0.0.1')).toBe('127.0.0.1');
    expect(reachableHost('lendbot.internal')).toBe('lendbot.internal');
  });
});
