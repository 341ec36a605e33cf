/**
 * The daemon's built parts, assembled in the order they use one another, so nothing is used
 * before it exists: the notice relay before the service health and the protections that send
 * through it (messaging points it at its notifier when it attaches, notice-relay.ts), the metrics
 * before the client they count, the client and store before everything that calls them, the
 * pipeline and its features (cash, the learners it prices with) before the inbox worker and the
 * poller that feed it. The parts come in named groups, so a feature reads a few of them.
 *
 * The features then attach to these parts in one call each, the way fastify plugins and probot
 * apps do (src/daemon/daemon.ts: attachOps, attachMessaging, attachRetrain, attachOperator): each
 * reads what it needs of the parts and registers its routes, listeners and jobs.
 */
import { systemClock, type Clock, type Sleep } from '../clock/clock.js';
import {
  eventDropReason,
  loadStrategyFiles,
  type CompiledStrategy,
  type DataSource,
  type SpendLedger,
  type StrategyLayer,
} from '../engine/index.js';
import { createLogger, type Logger } from '../log/logger.js';
import type { RiskLimits } from '../risk/index.js';
import { ConfigurationError } from '../domain/index.js';
import { reasonText } from '../domain/decision-reason.js';
import {
  createMarketplaceClient,
  serviceConfigFromEnv,
  serviceSettingsFromSection,
  unionListFilters,
  type MarketplaceApi,
  type ServiceConfig,
} from '../service/index.js';
import { claimStoreMode, openStore, type Store } from '../store/index.js';
import { buildWebhookServer, type WebhookServer } from '../webhook/index.js';
import { BalanceTracker } from './balance-tracker.js';
import { daemonConfigSchema, type DaemonConfigFile } from './daemon-config.js';
import { InboxWorker } from './inbox-worker.js';
import { NoticeRelay } from './notice-relay.js';
import { OfferPlacer } from './offer-placer.js';
import { Pipeline } from './pipeline.js';
import { attachCashPosition } from './cash-position.js';
import { RequestGuards } from './request-guard.js';
import { RestoredLearners } from './restored-learners.js';
import { Poller } from './poller.js';
import { serviceDataSource, storeSpendLedger } from './service-data.js';
import { instrumentClient } from '../ops/instrument.js';
import { createMetrics, type LendbotMetrics } from '../ops/metrics.js';
import { Protections } from '../ops/protections/index.js';
import { ServiceHealth } from '../ops/service-health.js';
import type { ActiveConfig } from '../ops/hot-reload.js';
import { lossRatesFromConfig } from '../money/loss-rates-config.js';
import type { LossRates } from '../money/equity.js';
import { reachableHost } from '../operator/operator-listener.js';
import type { ReturnsAnswer } from '../operator/api/api-types.js';
import { returnsFromStore } from '../operator/api/returns-routes.js';
import type { RequestHolds } from '../operator/agent-context.js';

type Env = Record<string, string | undefined>;
/** The marketplace client the daemon owns: closed at the stop, its calls abandoned when the stop must not wait. */
type DaemonClient = MarketplaceApi & { close?: () => void; abandon?: () => number };

/** What the composition root's caller may pass instead of building it (createDaemon in daemon.ts). */
export interface DaemonOverrides {
  clock?: Clock;
  client?: DaemonClient;
  store?: Store;
  log?: Logger;
  strategies?: CompiledStrategy[];
  webhookSecret?: string;
  /** The config file the daemon was loaded from; its `risk:` section is hot-reloaded. */
  configFile?: string | undefined;
  /** The clock back-off waits on (default `clock`): real time when the market's clock is fast. */
  backoffClock?: Clock;
  /** Real time for a person's minutes (confirmation codes, agents' proposals); default the system clock. */
  realClock?: Clock;
  /** The time chat messages are paced on (default the system clock and real waits): Telegram's limits are real seconds. */
  chatPace?: { clock: Clock; sleep: Sleep };
  /** Simulated seconds per real second of `clock` (default 1); scales the health check's poll age. */
  clockSpeed?: number;
  /** How the daemon names its market in the log: 'live' (default) or 'sandbox'. */
  mode?: 'live' | 'sandbox';
  /** Let a dry run take a live database, or the reverse (lendbot run --switch-db-mode; store/store-mode.ts). */
  switchStoreMode?: boolean;
  /** Runs after the daemon stopped (the run command closes the sandbox it started). */
  afterStop?: () => Promise<void>;
  /**
   * false leaves messaging (notifications, the digest, Telegram) unattached, as deleting its attach
   * line would: the daemon decides and places without it (test/daemon/messaging-left-out.test.ts).
   */
  messaging?: false;
  /** false leaves the agents' proposals unattached: none is placed or expired (test/daemon/proposals-left-out.test.ts). */
  proposals?: false;
  /** false leaves the challengers (shadow strategies) unattached (test/daemon/challengers-left-out.test.ts). */
  challengers?: false;
  /** false leaves retraining unattached, as deleting its attach line would (test/daemon/retrain-left-out.test.ts). */
  retrain?: false;
  /** false leaves the cash-flow wing (the idle-cash watch) unattached, as deleting its attach line would (test/daemon/cash-flow-left-out.test.ts). */
  cashFlow?: false;
  /** false leaves market learning unattached: nothing restored nor learned (test/daemon/market-learning-left-out.test.ts). */
  marketLearning?: false;
  /** false leaves the learned default level unattached: nothing restored nor fed (test/daemon/calibration-left-out.test.ts). */
  calibration?: false;
  /** The sandbox's hold on a request while an agent's proposal waits (src/proposals/request-holds.ts); absent live. */
  requestHolds?: RequestHolds;
}

/** The clocks the parts run on. */
interface DaemonClocks {
  /** The market's clock: every stored time is in it. */
  market: Clock;
  /** Real time when the market's clock is fast: back-off and retries wait on it. */
  backoff: Clock;
  /** Real time for a person's minutes (confirmation codes, proposals, Telegram). */
  real: Clock;
  /** Simulated seconds per real second of `market` (1 live). */
  speed: number;
  /** The time chat messages are paced on, when a test passes its own (DaemonOverrides.chatPace). */
  chatPace: { clock: Clock; sleep: Sleep } | undefined;
}

/** The strategies and limits in force, read at each use: hot reload swaps them; features lay theirs over (layer). */
interface ActiveStrategies {
  strategies: () => readonly CompiledStrategy[];
  /** The strategies the files (or the overrides) gave, before any feature's layer. */
  fileStrategies: () => readonly CompiledStrategy[];
  /** Where a feature lays strategies over the files' (retraining's managed versions and shadow candidates); identity until one does. */
  layer: StrategyLayer;
  limits: () => RiskLimits;
  /** The strategy files in use; undefined when the strategies were compiled in process (tests). */
  files: readonly string[] | undefined;
  /** Hot reload's sources and how a validated change is swapped in; undefined when the strategies were compiled in process. */
  reload:
    | {
        strategyFiles: readonly string[];
        configFile: string | undefined;
        configSchema: typeof daemonConfigSchema;
        apply: (next: ActiveConfig) => Promise<void>;
      }
    | undefined;
}

/** Everything the composition root built, for the features to attach to. */
export interface DaemonParts {
  config: DaemonConfigFile;
  env: Env;
  /** A component's logger is its child (`log.child({ component })`). */
  log: Logger;
  dryRun: boolean;
  clocks: DaemonClocks;
  marketplace: {
    mode: 'live' | 'sandbox';
    /** The client every part calls through, each call counted by the metrics and heard by the service health. */
    client: DaemonClient;
    /** The client as built, for the start-up check (a refusal there ends start-up, it is no degradation). */
    bareClient: DaemonClient;
    /** How the client was configured; undefined when the market was passed in (the sandbox, tests). */
    serviceConfig: ServiceConfig | undefined;
  };
  store: Store;
  active: ActiveStrategies;
  /** What other parts are built with: the metrics count the client's calls, the service health hears them, the protections pause the pipeline, and all notify through the relay (messaging's notifier once it attaches, notice-relay.ts). */
  instruments: { metrics: LendbotMetrics; serviceHealth: ServiceHealth; notices: NoticeRelay; protections: Protections };
  /** What a decision is made and an offer placed with, the pipeline's and an agent's: paid data from the service, its spend to the purchases table, the balance, the placer. */
  trading: { data: DataSource<false>; spend: SpendLedger; balance: BalanceTracker; placer: OfferPlacer };
  /** The config's expected-loss shares (equity in the status and /metrics) and the returns series up to a time (the digest's earnings, Telegram's /profit). */
  returns: { lossRates: LossRates; earnings: (nowMs: number) => ReturnsAnswer };
  pipeline: Pipeline;
  /** The learners the pipeline prices with, which the market-learning and calibration wings restore and feed (restored-learners.ts). */
  learners: RestoredLearners;
  /** How requests come in: the poller (page by page), the inbox worker (the stored webhooks), the marketplace-facing listener before it listens (features add their routes, /healthz) and its URL on this machine. */
  intake: { poller: Poller; inbox: InboxWorker; webhook: WebhookServer; webhookUrl: string };
}

/** Builds the parts in dependency order; the jobs and the daemon's start and stop are the caller's (daemon.ts). */
export async function assembleDaemonParts(config: DaemonConfigFile, env: Env, overrides: DaemonOverrides): Promise<DaemonParts> {
  const log = overrides.log ?? createLogger({ level: config.log_level });
  const mode = overrides.mode ?? 'live';
  // Checked first, before anything starts: a daemon that cannot trade must say so, not run.
  if (overrides.client === undefined) requireLiveCredentials(env, overrides.webhookSecret !== undefined);
  const initialStrategies = overrides.strategies ?? (await loadStrategyFiles(config.strategies));
  const clock = overrides.clock ?? systemClock;
  const backoffClock = overrides.backoffClock ?? clock;
  const realClock = overrides.realClock ?? systemClock;
  const component = (name: string): Logger => log.child({ component: name });

  let bareClient: DaemonClient;
  let serviceConfig: ServiceConfig | undefined;
  if (overrides.client === undefined) {
    serviceConfig = { ...serviceConfigFromEnv(env), ...serviceSettingsFromSection(config.service) };
    bareClient = createMarketplaceClient(serviceConfig, { clock, log });
  } else {
    bareClient = overrides.client;
  }
  const webhookSecret = overrides.webhookSecret ?? env.LENDBOT_WEBHOOK_SECRET?.trim();
  if (!webhookSecret) throw new ConfigurationError('LENDBOT_WEBHOOK_SECRET is not set; export the webhook secret the marketplace gave you');
  const notices = new NoticeRelay();
  const notify = (...args: Parameters<NoticeRelay['notify']>): void => notices.notify(...args);
  const metrics = createMetrics();
  const serviceHealth = new ServiceHealth({
    clock: backoffClock,
    log: component('service'),
    notify: (data) => notify('service_degraded', data),
  });
  const client = instrumentClient(bareClient, metrics, (endpoint, error) => serviceHealth.observe(endpoint, error));
  const store =
    overrides.store ??
    openStore(config.db, { onWarning: (message) => log.warn({ db: config.db }, message), synchronous: config.store.synchronous });
  const dryRun = config.dry_run;
  // The file says whether it holds a dry run or live offers, and the two never mix unasked:
  // every view reads its offers from that mode (store/store-mode.ts).
  try {
    claimStoreMode(store.mode, { dryRun, switchMode: overrides.switchStoreMode === true, path: config.db, nowMs: clock.now() });
  } catch (error) {
    if (overrides.store === undefined) store.close();
    throw error;
  }

  // What hot reload may change: read at each use, so nobody keeps a stale copy; swapped between two requests.
  let inForce: ActiveConfig = { strategies: initialStrategies, limits: config.risk };
  const strategyLayer: StrategyLayer = { over: (files) => files };
  const fileStrategies = () => inForce.strategies;
  const strategies = () => strategyLayer.over(fileStrategies());
  const limits = () => inForce.limits;
  const balance = new BalanceTracker({ client, store, clock, log: component('balance') });
  const placer = new OfferPlacer({ client, store, clock, log: component('act'), dryRun });
  const protections = new Protections({ store, clock, log: component('protect'), settings: () => limits().protections, notify });
  const learners = new RestoredLearners();
  const data = serviceDataSource(client);
  const spend = storeSpendLedger(store);
  const pipelineLog = component('pipeline');
  const guards = new RequestGuards({ store, clock, dryRun, limits, balance, pause: protections });
  // A request whose data failed waits in real time, like every back-off.
  const pipeline = new Pipeline({
    store,
    clock,
    log: pipelineLog,
    strategies,
    limits,
    guards,
    data,
    spend,
    placer,
    dryRun,
    retryClock: backoffClock,
  });
  // The features a decision reads or feeds, in the order their hooks run (Pipeline.provide, Pipeline.onDecided); the metrics listen after them (attachOps).
  attachCashPosition(pipeline, { store, limits, balance, dryRun });
  pipeline.provide(() => ({ learning: learners.learning() }));
  pipeline.onDecided((_request, _source, _result, { placement }) => {
    // Refusals for account reasons feed the automatic pauses (src/ops/protections).
    if (placement?.kind === 'refused') protections.noteOfferRefusal(placement.serviceText);
    // The offer may have moved money (automate_fund): refresh in the background.
    if (placement?.kind === 'placed' && !dryRun)
      balance.refresh().catch((error: unknown) => pipelineLog.warn({ err: error }, 'balance refresh failed'));
  });
  // The poll asks only for what some active strategy could take (read at each poll: hot reload).
  const listFilters = () => (config.poll.server_filters ? unionListFilters(strategies().map((strategy) => strategy.listRestriction)) : {});
  const poller = new Poller({ client, store, pipeline, clock, log: component('poll'), listFilters });
  const inbox = new InboxWorker({
    client,
    store,
    pipeline,
    clock,
    backoffClock,
    log: component('inbox'),
    prefilter: (data) => {
      const reason = eventDropReason(data, limits().allowedRiskLevels, strategies());
      return reason === null ? { pass: true } : { pass: false, reason: reasonText(reason) };
    },
  });
  // The trip of a request: the listener stores the event and wakes the inbox worker, which
  // fetches the request and hands it to the pipeline (inbox-worker.ts, pipeline.ts).
  const webhook = buildWebhookServer({
    secret: webhookSecret,
    path: config.webhook.path,
    bodyLimitBytes: config.webhook.body_limit_bytes,
    inbox: store.inbox,
    clock,
    log,
    worker: inbox,
    onOutcome: (outcome) => metrics.webhookEvents.inc({ outcome }),
    tokenLayout: config.webhook.token_layout,
    refusalWarning: {
      state: store.state,
      refusals: config.webhook.warn_after.refusals,
      windowMs: config.webhook.warn_after.within_minutes * 60_000,
    },
  });
  const lossRates = lossRatesFromConfig(config);
  const webhookUrl = `http://${reachableHost(config.webhook.host)}:${config.webhook.port}${config.webhook.path}`;
  return {
    config,
    env,
    log,
    dryRun,
    clocks: { market: clock, backoff: backoffClock, real: realClock, speed: overrides.clockSpeed ?? 1, chatPace: overrides.chatPace },
    marketplace: { mode, client, bareClient, serviceConfig },
    store,
    active: {
      strategies,
      fileStrategies,
      layer: strategyLayer,
      limits,
      files: overrides.strategies === undefined ? config.strategies : undefined,
      // Hot reload only when the strategies came from files (tests pass compiled ones).
      reload:
        overrides.strategies === undefined
          ? {
              strategyFiles: config.strategies,
              configFile: overrides.configFile,
              configSchema: daemonConfigSchema,
              // Swapped between two requests, never during one.
              apply: (next) =>
                pipeline.exclusive(async () => {
                  inForce = next;
                }),
            }
          : undefined,
    },
    instruments: { metrics, serviceHealth, notices, protections },
    trading: { data, spend, balance, placer },
    returns: { lossRates, earnings: (nowMs) => returnsFromStore(store, nowMs, lossRates) },
    pipeline,
    learners,
    intake: { poller, inbox, webhook, webhookUrl },
  };
}

/** The variables a live daemon needs, all named at once when some are missing. */
function requireLiveCredentials(env: Env, hasWebhookSecret: boolean): void {
  const needed = ['LENDBOT_BASE_URL', 'LENDBOT_API_KEY', 'LENDBOT_SECRET_KEY', ...(hasWebhookSecret ? [] : ['LENDBOT_WEBHOOK_SECRET'])];
  const missing = needed.filter((name) => !env[name]?.trim());
  if (missing.length === 0) return;
  const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
  throw new ConfigurationError(
    `${list} ${missing.length === 1 ? 'is not set: set it' : 'are not set: set them'} to trade on the marketplace, or run \`lendbot run --sandbox\` for the simulated one (no real money)`,
  );
}
