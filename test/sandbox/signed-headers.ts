// Authentication headers for raw requests that the client would refuse to send.
import { signRequest } from '../../src/service/index.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';

export function signedHeaders(sandbox: SandboxHandle): Record<string, string> {
  return {
    ...signRequest({
      apiKey: sandbox.credentials.apiKey,
      secretKey: sandbox.credentials.secretKey,
      timestamp: Math.floor(sandbox.clock.now() / 1000),
      mode: 'timestamp-secret',
      url: sandbox.url,
    }),
  };
}
