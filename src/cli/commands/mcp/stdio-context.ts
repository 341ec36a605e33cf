/**
 * The agent connector's parts for `lendbot mcp`, built from the same config, database and
 * credentials as `lendbot run`, with the daemon's own classes: the OfferPlacer (intent row
 * before the POST), the BalanceTracker, the decide step's data source and spend ledger, and the
 * protections' pause. The context is made of them by the builder the daemon's operator listener
 * uses (src/operator/agent-context.ts, buildAgentContext). Another process may be running the daemon on the same database: the
 * intent row, unique per request, still lets at most one offer out.
 */
import { systemClock } from '../../../clock/clock.js';
import { BalanceTracker } from '../../../daemon/balance-tracker.js';
import type { DaemonConfigFile } from '../../../daemon/daemon-config.js';
import { wingAgent } from '../../../daemon/wing-surfaces.js';
import { OfferPlacer } from '../../../daemon/offer-placer.js';
import { SerialQueue } from '../../../daemon/serial-queue.js';
import { serviceDataSource, storeSpendLedger } from '../../../daemon/service-data.js';
import { loadStrategyFile } from '../../../engine/index.js';
import type { Logger } from '../../../log/logger.js';
import { Protections } from '../../../ops/protections/index.js';
import { buildAgentContext, type AgentContext } from '../../../operator/agent-context.js';
import { createMarketplaceClient, serviceConfigFromEnv, serviceSettingsFromSection } from '../../../service/index.js';
import { openStore, StoreModeError } from '../../../store/index.js';

export interface StdioParts {
  context: AgentContext;
  close(): Promise<void>;
}

export async function buildStdioContext(
  config: DaemonConfigFile,
  env: Record<string, string | undefined>,
  log: Logger,
): Promise<StdioParts> {
  const clock = systemClock;
  // Checked before anything is opened: a connector without credentials can do nothing.
  const serviceConfig = serviceConfigFromEnv(env);
  const strategies = await Promise.all(config.strategies.map((file) => loadStrategyFile(file)));
  const client = createMarketplaceClient(
    { ...serviceConfig, ...serviceSettingsFromSection(config.service) },
    { clock, log: log.child({ component: 'service' }) },
  );
  const store = openStore(config.db, {
    onWarning: (message) => log.warn({ db: config.db }, message),
    synchronous: config.store.synchronous,
  });
  const component = (name: string): Logger => log.child({ component: name });
  // The database says whether it holds a dry run (store/store-mode.ts): on a dry-run file the
  // agent's offers are paper ones too, whatever the config says; a dry run is never asked of a
  // live file (its paper offers would mix with the real ones).
  const recorded = store.mode.get()?.mode;
  if (config.dry_run && recorded === 'live') {
    store.close();
    client.close();
    throw new StoreModeError(config.db, 'live');
  }
  const dryRun = config.dry_run || recorded === 'dry_run';
  const balance = new BalanceTracker({ client, store, clock, log: component('balance') });
  // No pipeline here: the agent's offers wait their turn in a queue of their own.
  const queue = new SerialQueue();
  const context: AgentContext = buildAgentContext(
    {
      store,
      log,
      dryRun,
      clocks: { market: clock, real: systemClock },
      marketplace: { client, mode: 'live' },
      active: { strategies: () => strategies, limits: () => config.risk, files: config.strategies },
      config,
      trading: {
        balance,
        data: serviceDataSource(client),
        spend: storeSpendLedger(store),
        placer: new OfferPlacer({ client, store, clock, log: component('act'), dryRun }),
      },
      pipeline: { exclusive: (job) => queue.run(job) },
      // No notifier here: a running daemon notices a pause or a lift at its next read and notifies it.
      instruments: { protections: new Protections({ store, clock, log: component('protect'), settings: () => config.risk.protections }) },
    },
    // Every wing: `lendbot mcp` has no overrides to leave one out.
    wingAgent({}),
  );
  return {
    context,
    async close() {
      await queue.idle();
      await balance.idle();
      client.close();
      store.close();
    },
  };
}
