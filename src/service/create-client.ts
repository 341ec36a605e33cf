/** Builds a MarketplaceClient from settings, with the clock, sleep and logger it should use. */
import { realSleep, systemClock, type Clock, type Sleep } from '../clock/clock.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { DEFAULT_CLOCK_SKEW } from './clock-skew.js';
import { HttpTransport } from './http-transport.js';
import { MarketplaceClient } from './marketplace-client.js';
import { RefusalTexts } from './refusal-texts.js';
import { DEFAULT_RESPONSE_LIMITS } from './response-limits.js';
import type { ServiceConfig } from './service-config.js';
import { LENDBOT_VERSION } from '../version.js';

export interface ClientDeps {
  clock?: Clock;
  sleep?: Sleep;
  random?: () => number;
  log?: Logger;
}

export function createMarketplaceClient(config: ServiceConfig, deps: ClientDeps = {}): MarketplaceClient {
  const transport = new HttpTransport(
    {
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      secretKey: config.secretKey,
      bearerToken: config.bearerToken,
      signatureMode: config.signatureMode,
      timeoutMs: config.timeoutMs,
      retry: config.retry,
      clockSkew: config.clockSkew ?? DEFAULT_CLOCK_SKEW,
      userAgent: `lendbot/${LENDBOT_VERSION}`,
      refusals: new RefusalTexts(config.refusalTexts),
      responseLimits: config.maxResponseBytes ?? DEFAULT_RESPONSE_LIMITS,
    },
    {
      clock: deps.clock ?? systemClock,
      sleep: deps.sleep ?? realSleep,
      random: deps.random ?? Math.random,
      log: (deps.log ?? silentLogger).child({ component: 'service' }),
    },
  );
  return new MarketplaceClient(transport, config.numericRangeFormat);
}
