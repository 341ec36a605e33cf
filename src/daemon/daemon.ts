/**
 * The composition root: builds the daemon from its configuration and the environment's
 * credentials. It knows nothing of the simulator: tests and `lendbot run --sandbox` pass the
 * market as overrides ({ client, clock, webhookSecret, backoffClock, clockSpeed, store, log,
 * strategies }) instead of mocking modules. The pipeline, the jobs and operations are built here
 * and wired together; each lives in its own file.
 */
import { MarketFates } from './market-fates.js';
import { systemClock, type Clock } from '../clock/clock.js';
import { eventDropReason, loadStrategyFiles, type CompiledStrategy } from '../engine/index.js';
import { createLogger, type Logger } from '../log/logger.js';
import { ConfigurationError } from '../domain/index.js';
import {
  createMarketplaceClient,
  serviceConfigFromEnv,
  serviceSettingsFromSection,
  unionListFilters,
  type MarketplaceApi,
  type ServiceConfig,
} from '../service/index.js';
import { openStore, type Store } from '../store/index.js';
import { buildWebhookServer } from '../webhook/index.js';
import { AccountSync } from './account-sync.js';
import { BalanceTracker } from './balance-tracker.js';
import { daemonConfigSchema, type DaemonConfigFile } from './daemon-config.js';
import { serviceDataSource, storeSpendLedger } from './service-data.js';
import { FundingJob } from './funding-job.js';
import { InboxWorker, type WebhookEventPrefilter } from './inbox-worker.js';
import { Swappable } from './swappable.js';
import { IntentReconciler, type ListedRequests } from './intent-reconciler.js';
import { OfferPlacer } from './offer-placer.js';
import { Pipeline } from './pipeline.js';
import { Poller, type PollHooks } from './poller.js';
import { Scheduler } from '../clock/scheduler.js';
import { checkMarketplaceAtStart, listenOrExplain } from './start-checks.js';
// Operations (src/ops): metrics, health, hot reload, notifications.
import { instrumentClient } from '../ops/instrument.js';
import { createMetrics } from '../ops/metrics.js';
import { Protections } from '../ops/protections/index.js';
import { ServiceHealth } from '../ops/service-health.js';
import { wireOperations } from '../ops/wire-operations.js';
import { terminalSummaryJobs } from '../ops/terminal-summary.js';
// The operator listener: dashboard, API, /metrics and the MCP agent connector (src/operator).
import { reachableHost } from '../operator/operator-listener.js';
import { operatorSurface } from '../operator/operator-surface.js';
import { approvalSettings } from '../operator/proposals/allowance.js';
import { returnsFromStore } from '../operator/api/returns-routes.js';
import { lossRatesFromConfig } from '../ops/loss-rates-config.js';
import { approveProposal, rejectProposal } from '../operator/proposals/decide-proposal.js';

export interface DaemonOverrides {
  clock?: Clock;
  client?: MarketplaceApi & { close?: () => void };
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
  /** Simulated seconds per real second of `clock` (default 1); scales the health check's poll age. */
  clockSpeed?: number;
  /** How the daemon names its market in the log: 'live' (default) or 'sandbox'. */
  mode?: 'live' | 'sandbox';
  /** Runs after the daemon stopped (the run command closes the sandbox it started). */
  afterStop?: () => Promise<void>;
}

export interface Daemon {
  mode: 'live' | 'sandbox';
  store: Store;
  pipeline: Pipeline;
  poller: Poller;
  inbox: InboxWorker;
  /** The webhook URL on this machine (for the sandbox's subscription and for tests). */
  webhookUrl: string;
  /** The operator listener's base URL once started (`/mcp` below it); undefined when it serves nothing. */
  operatorUrl(): string | undefined;
  /**
   * One signed read of the marketplace before anything starts (`lendbot run`, live and dry run):
   * refused credentials, an unreachable or wrong LENDBOT_BASE_URL end start-up with one line
   * (start-checks.ts). Nothing to check when the market was passed in (the sandbox, tests).
   */
  checkMarketplace(): Promise<void>;
  start(): Promise<void>;
  /** Runs one of the scheduled jobs now (poll, balance, sync, fund, protections, inbox, learn); joins a run under way. */
  runJob(name: string): Promise<void>;
  /** Stops intake, finishes work in flight, closes everything. */
  stop(): Promise<void>;
}

type Env = Record<string, string | undefined>;

export async function createDaemon(config: DaemonConfigFile, env: Env, overrides: DaemonOverrides = {}): Promise<Daemon> {
  const log = overrides.log ?? createLogger({ level: config.log_level });
  const mode = overrides.mode ?? 'live';
  // Checked first, before anything starts: a daemon that cannot trade must say so, not run.
  if (overrides.client === undefined) requireLiveCredentials(env, overrides.webhookSecret !== undefined);
  const initialStrategies = overrides.strategies ?? (await loadStrategyFiles(config.strategies));

  const clock = overrides.clock ?? systemClock;
  let client: MarketplaceApi & { close?: () => void };
  let serviceConfig: ServiceConfig | undefined;
  if (overrides.client === undefined) {
    serviceConfig = { ...serviceConfigFromEnv(env), ...serviceSettingsFromSection(config.service) };
    client = createMarketplaceClient(serviceConfig, { clock, log });
  } else {
    client = overrides.client;
  }
  // The start-up check reads through the bare client: a refusal there ends start-up, so it is
  // not the service health's (no "degraded" line, no notification).
  const bareClient = client;
  const webhookSecret = overrides.webhookSecret ?? env.LENDBOT_WEBHOOK_SECRET?.trim();
  if (!webhookSecret) throw new ConfigurationError('LENDBOT_WEBHOOK_SECRET is not set; export the webhook secret the marketplace gave you');
  const port = config.webhook.port;
  const backoffClock = overrides.backoffClock ?? clock;
  const metrics = createMetrics();
  const serviceHealth = new ServiceHealth({
    clock: backoffClock,
    log: log.child({ component: 'service' }),
    notify: (data) => ops.notify('service_degraded', data),
  });
  client = instrumentClient(client, metrics, (endpoint, error) => serviceHealth.observe(endpoint, error));
  const store = overrides.store ?? openStore(config.db, { onWarning: (message) => log.warn({ db: config.db }, message), synchronous: config.store.synchronous });
  const dryRun = config.dry_run;
  // What hot reload may change; read through get() each time, swapped between two requests.
  const active = new Swappable({ strategies: initialStrategies as readonly CompiledStrategy[], limits: config.risk });
  const strategies = () => active.get().strategies;
  const limits = () => active.get().limits;
  const component = (name: string): Logger => log.child({ component: name });
  const balance = new BalanceTracker({ client, store, clock, log: component('balance') });
  const placer = new OfferPlacer({ client, store, clock, log: component('act'), dryRun });
  const protections = new Protections({
    store,
    clock,
    log: component('protect'),
    settings: () => limits().protections,
    notify: (event, data) => ops.notify(event, data),
  });
  const marketFates = new MarketFates({ store, clock, log: component('learn'), offerExpiryMs: () => limits().offerExpiryMs });
  const pipeline = new Pipeline({
    store,
    clock,
    log: component('pipeline'),
    strategies,
    limits,
    balance,
    data: serviceDataSource(client),
    spend: storeSpendLedger(store),
    placer,
    dryRun,
    protections,
    // A request whose data failed waits in real time, like every back-off.
    retryClock: backoffClock,
    marketFates,
  });
  // The poll asks only for what some active strategy could take (read at each poll: hot reload).
  const listFilters = () => (config.poll.server_filters ? unionListFilters(strategies().map((strategy) => strategy.listRestriction)) : {});
  const poller = new Poller({ client, store, pipeline, clock, log: component('poll'), listFilters });
  const prefilter: WebhookEventPrefilter = (data) => {
    const reason = eventDropReason(data, limits().allowedRiskLevels, strategies());
    return reason === null ? { pass: true } : { pass: false, reason };
  };
  const inbox = new InboxWorker({ client, store, pipeline, clock, backoffClock, log: component('inbox'), prefilter });
  const reconciler = new IntentReconciler({ client, store, clock, log: component('reconcile'), offerExpiryMs: () => limits().offerExpiryMs });
  const accountSync = new AccountSync({ client, store, clock, log: component('sync'), offerExpiryMs: () => limits().offerExpiryMs });
  const funding = new FundingJob({ client, store, clock, log: component('fund'), dryRun, balance, limits, pipeline });
  const scheduler = new Scheduler(component('scheduler'), backoffClock);

  const webhook = buildWebhookServer({
    secret: webhookSecret,
    path: config.webhook.path,
    bodyLimitBytes: config.webhook.body_limit_bytes,
    inbox: store.inbox,
    clock,
    log,
    onStored: (event) => {
      inbox.drain(event).catch((error: unknown) => log.error({ err: error }, 'inbox drain failed'));
    },
    onOutcome: (outcome) => metrics.webhookEvents.inc({ outcome }),
    tokenLayout: config.webhook.token_layout,
    refusalWarning: { state: store.state, refusals: config.webhook.warn_after.refusals, windowMs: config.webhook.warn_after.within_minutes * 60_000 },
  });
  const host = config.webhook.host;
  const webhookUrl = `http://${reachableHost(host)}:${port}${config.webhook.path}`;

  // Offers whose outcome is unknown are settled before new requests are decided, so the guard
  // weighs new offers against known money (they reserve meanwhile in any case).
  const settleUnknownOffers = (listed: ListedRequests) => pipeline.exclusive(() => reconciler.reconcile(listed));
  // In a poll, page by page: the offers on a page are settled before its new requests are decided.
  const pollHooks: PollHooks = {
    beforePage: (pageIds) => pipeline.exclusive(() => reconciler.settleListed(pageIds)),
    afterScan: (listed) => pipeline.exclusive(async () => reconciler.expireUnlisted(listed)),
  };
  const pollJob = {
    name: 'poll',
    schedule: config.poll.schedule,
    run: () => poller.poll(pollHooks),
  };
  const inboxJob = { name: 'inbox', schedule: config.poll.schedule, run: () => inbox.drain() };
  const jobs = [
    pollJob,
    { name: 'balance', schedule: config.jobs.balance_refresh, run: () => balance.refresh() },
    {
      name: 'sync',
      schedule: config.jobs.reconcile,
      run: async () => {
        const { offersSettled } = await accountSync.sync();
        // A funded offer stops reserving money once its loan is synced; read the balance it was
        // paid from at once, so the guard never sees the money as both free and unspent.
        if (offersSettled > 0) await balance.refresh();
      },
    },
    { name: 'fund', schedule: config.jobs.fund_accepted, run: () => funding.run() },
    { name: 'protections', schedule: config.jobs.protections, run: async () => protections.check() },
    inboxJob,
    // Offer fates (accepted, rejected, lost, expired) teach learning strategies their market.
    { name: 'learn', schedule: config.jobs.reconcile, run: async () => void marketFates.learnFates() },
  ];

  /** Settles intents and unknown offers left by a crash or an outage, before anything new is decided. */
  const settleAtStart = async (): Promise<void> => {
    const unsettled = store.offers.listByState(['intent', 'unknown']).length;
    if (unsettled === 0) return;
    try {
      const summary = await poller.list();
      const { settled, stillUnknown } = await settleUnknownOffers({ ids: summary.listedIds, complete: summary.complete });
      log.info({ settled, stillUnknown }, 'offers left unsettled by the last run reconciled');
    } catch (error) {
      // They keep reserving their money until a later poll settles them.
      log.warn({ err: error, unsettled }, 'could not settle the offers left by the last run yet; they keep reserving their money');
    }
  };
  const ops = wireOperations({
    app: webhook,
    metrics,
    store,
    clock,
    pipeline,
    log,
    env,
    dryRun,
    strategies,
    limits,
    clockSpeed: overrides.clockSpeed ?? 1,
    serviceDegraded: () => serviceHealth.current(),
    inboxProgressAtMs: () => inbox.lastProgressAtMs,
    notifications: config.notifications,
    // The digest's earnings and Telegram's commands (src/ops/digest, src/ops/telegram-commands).
    earnings: (nowMs) => returnsFromStore(store, nowMs, lossRatesFromConfig(config)),
    equityLossRates: lossRatesFromConfig(config),
    protections,
    proposals: {
      approve: (id, by) => approveProposal({ store, clock: overrides.realClock ?? systemClock }, id, by),
      reject: (id, by) => rejectProposal({ store, clock: overrides.realClock ?? systemClock }, id, by),
    },
    ...(overrides.realClock === undefined ? {} : { realClock: overrides.realClock }),
    // Hot reload only when the strategies came from files (tests pass compiled ones).
    ...(overrides.strategies === undefined
      ? {
          reload: {
            strategyFiles: config.strategies,
            configFile: overrides.configFile,
            configSchema: daemonConfigSchema,
            // Swapped between two requests, never during one.
            apply: (next) => pipeline.exclusive(async () => active.swap(next)),
          },
        }
      : {}),
  });

  // Agents act through the daemon's own parts: its client, guard inputs, placer and pipeline queue.
  const operator = operatorSurface({
    config: config.ops,
    env,
    log: component('operator'),
    metrics: ops.metrics,
    context: {
      client,
      store,
      clock,
      realClock: overrides.realClock ?? systemClock,
      log: component('agent'),
      mode,
      dryRun,
      strategies,
      limits,
      strategyFiles: () => (overrides.strategies === undefined ? config.strategies : undefined),
      config,
      balance,
      data: serviceDataSource(client),
      spend: storeSpendLedger(store),
      placer,
      exclusive: (job) => pipeline.exclusive(job),
      protections,
      approvals: approvalSettings(config.ops),
    },
  });

  let stopped = false;
  return {
    mode,
    store,
    pipeline,
    poller,
    inbox,
    webhookUrl,
    operatorUrl: () => operator.url(),
    async checkMarketplace() {
      if (serviceConfig === undefined) return;
      await checkMarketplaceAtStart(bareClient, { baseUrl: serviceConfig.baseUrl, tries: serviceConfig.retry.readRetries + 1, log: component('start') });
    },
    async start() {
      // Webhooks are stored from now on, but nothing is decided before the offers a crash left
      // unsettled are settled (they reserve their money meanwhile).
      inbox.hold();
      // On a terminal, a summary line a minute, counting from here (src/ops/terminal-summary.ts).
      const summaryJobs = terminalSummaryJobs({ store, clock, limits, dryRun, log: component('summary') });
      // Both ports first, before anything runs: a port another program holds ends start-up with
      // one line naming it and its setting (start-checks.ts).
      await listenOrExplain(() => webhook.listen({ host, port }).then(() => undefined), { what: 'the webhook listener', host, port, setting: 'webhook.port or LENDBOT_WEBHOOK_PORT' });
      await listenOrExplain(() => operator.start(), { what: 'the operator listener', host: config.ops.host, port: config.ops.port, setting: 'ops.port or LENDBOT_OPS_PORT' });
      await ops.start();
      log.info({ webhookUrl, mode, dryRun, strategies: strategies().map((s) => s.name) }, 'lendbot started');
      await settleAtStart();
      inbox.release();
      // Events stored before a stop or crash come first, then a full poll.
      await scheduler.runOnce(inboxJob);
      if (config.poll.at_start) await scheduler.runOnce(pollJob);
      scheduler.start(jobs);
      scheduler.start(ops.jobs);
      scheduler.start(summaryJobs);
    },
    runJob(name: string) {
      const job = jobs.find((candidate) => candidate.name === name);
      if (!job) return Promise.reject(new RangeError(`no job "${name}"; jobs: ${jobs.map((j) => j.name).join(', ')}`));
      return scheduler.runOnce(job);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      webhook.setAccepting(false);
      // No new decision starts from here: the inbox and the poll stop before their next request,
      // and the ones in flight finish. Events not decided stay in the inbox for the next start.
      pipeline.stopIntake();
      const intakeStopped = Promise.all([inbox.stop(), poller.stop()]);
      ops.stop();
      // No agent call starts after this; one under way finishes in the pipeline's queue.
      await operator.stop();
      await intakeStopped;
      await scheduler.stop();
      // A delivery let in just before the listener turned to 503 may still be committing: its
      // event must be in the inbox before the database closes (it is decided after the restart).
      await webhook.settled();
      await pipeline.idle();
      await balance.idle();
      await webhook.close();
      await overrides.afterStop?.();
      client.close?.();
      if (!overrides.store) store.close();
      log.info('lendbot stopped');
    },
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
