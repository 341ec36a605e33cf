/**
 * The composition root: builds the daemon from its configuration and the environment's
 * credentials. It knows nothing of the simulator: tests and `lendbot run --sandbox` pass the
 * market as overrides ({ client, clock, webhookSecret, backoffClock, clockSpeed, store, log,
 * strategies }) instead of mocking modules.
 *
 * Three steps, each nameable: the built parts (daemon-parts.ts, assembleDaemonParts: store,
 * client, pipeline, inbox worker, poller, listener), the daemon's jobs (daemon-jobs.ts,
 * daemonJobs), then the features, each attached in one call: market learning
 * (src/market-learning/market-fates.ts, attachMarketLearning), the learned default level
 * (src/calibration/calibration-fates.ts, attachCalibration), the challengers
 * (src/challengers/shadow-decide.ts, attachShadows), operations (src/ops/attach-ops.ts,
 * attachOps), the operator listener (src/operator/attach-operator.ts, attachOperator), the agents'
 * proposals (src/proposals/attach-proposals.ts, attachProposals), messaging
 * (src/messaging/attach-messaging.ts, attachMessaging), retraining (src/retrain/attach-retrain.ts,
 * attachRetrain) and the idle-cash watch (src/cash-flow/attach-cash-flow.ts, attachCashFlow).
 */
import { attachCalibration } from '../calibration/calibration-fates.js';
import { attachCashFlow } from '../cash-flow/attach-cash-flow.js';
import { attachMarketLearning } from '../market-learning/market-fates.js';
import { Scheduler, type Job } from '../clock/scheduler.js';
import type { Store } from '../store/index.js';
import { attachMessaging, type Messaging } from '../messaging/attach-messaging.js';
import { attachOps } from '../ops/attach-ops.js';
import { attachOperator } from '../operator/attach-operator.js';
import { attachShadows } from '../challengers/shadow-decide.js';
import { attachProposals } from '../proposals/attach-proposals.js';
import { attachRetrain, type Retraining } from '../retrain/attach-retrain.js';
import type { DaemonConfigFile } from './daemon-config.js';
import { daemonJobs } from './daemon-jobs.js';
import { assembleDaemonParts, type DaemonOverrides } from './daemon-parts.js';
import type { InboxWorker } from './inbox-worker.js';
import type { Pipeline } from './pipeline.js';
import type { Poller } from './poller.js';
import { checkMarketplaceAtStart, listenOrExplain } from './start-checks.js';
import { wingAgent, wingApiRoutes } from './wing-surfaces.js';

export type { DaemonOverrides };

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
  /** Runs one of the scheduled jobs now (poll, balance, sync, fund, protections, inbox, learn, learn-defaults, retrain, idle-cash, and the operations' own, such as digest); joins a run under way. */
  runJob(name: string): Promise<void>;
  /** Stops intake, finishes work in flight, closes everything. */
  stop(): Promise<void>;
  /**
   * Cancels the marketplace calls in flight and refuses new ones, so a stop under way finishes
   * whatever the marketplace does (an offer in flight stays unknown, its money reserved, and is
   * reconciled after the restart). Returns how many calls were in flight.
   */
  abandonInFlight(): number;
}

type Env = Record<string, string | undefined>;

/** Messaging left out: no jobs, nothing to start; the parts' notices go nowhere (notice-relay.ts). */
const NO_MESSAGING: Messaging = { jobs: [], start: () => undefined, stop: () => undefined };
/** Retraining left out: the strategy files run as they are, and no retrain job exists. */
const NO_RETRAIN: Retraining = { jobs: [], start: async () => undefined };
/** A wing with only jobs left out (cash flow, market learning, calibration): none of its jobs runs. */
const NO_JOBS: { jobs: Job[] } = { jobs: [] };

export async function createDaemon(config: DaemonConfigFile, env: Env, overrides: DaemonOverrides = {}): Promise<Daemon> {
  const parts = await assembleDaemonParts(config, env, overrides);
  const { store, pipeline, log, dryRun } = parts;
  const { poller, inbox, webhook, webhookUrl } = parts.intake;
  const { mode, bareClient, serviceConfig } = parts.marketplace;
  const { jobs, inboxJob, pollJob, settleAtStart } = daemonJobs(parts);
  // The learners the decide step prices with are restored as these two attach (restored-learners.ts).
  const marketLearning = overrides.marketLearning === false ? NO_JOBS : attachMarketLearning(parts);
  const calibration = overrides.calibration === false ? NO_JOBS : attachCalibration(parts);
  // Before attachOps: the challengers hear each decision before the metrics do.
  if (overrides.challengers !== false) attachShadows(parts);
  const ops = attachOps(parts);
  const wings = { ...wingAgent(overrides), requestHolds: overrides.requestHolds };
  const operator = attachOperator(parts, { metrics: ops.metrics, wings, apiRoutes: wingApiRoutes(overrides) });
  const proposals = overrides.proposals === false ? undefined : attachProposals(operator.context);
  const messaging = overrides.messaging === false ? NO_MESSAGING : attachMessaging({ ...parts, proposals: proposals?.decider });
  const retrain = overrides.retrain === false ? NO_RETRAIN : attachRetrain(parts);
  const cashFlow = overrides.cashFlow === false ? NO_JOBS : attachCashFlow(parts);
  const wingJobs = [...marketLearning.jobs, ...calibration.jobs, ...cashFlow.jobs];
  const scheduler = new Scheduler(log.child({ component: 'scheduler' }), parts.clocks.backoff);

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
      const failing = await checkMarketplaceAtStart(bareClient, {
        baseUrl: serviceConfig.baseUrl,
        tries: serviceConfig.retry.readRetries + 1,
        log: log.child({ component: 'start' }),
      });
      if (failing !== undefined) poller.failingAtStart(failing);
    },
    async start() {
      // Webhooks are stored from now on, but nothing is decided before the offers a crash left
      // unsettled are settled (they reserve their money meanwhile).
      inbox.hold();
      const { host, port } = config.webhook;
      // Both ports first, before anything runs: a port another program holds ends start-up with
      // one line naming it and its setting (start-checks.ts).
      await listenOrExplain(() => webhook.listen({ host, port }).then(() => undefined), {
        what: 'the webhook listener',
        host,
        port,
        setting: 'webhook.port or LENDBOT_WEBHOOK_PORT',
      });
      await listenOrExplain(() => operator.start(), {
        what: 'the operator listener',
        host: config.ops.host,
        port: config.ops.port,
        setting: 'ops.port or LENDBOT_OPS_PORT',
      });
      await ops.start();
      // Places what people approved (lendbot approve, the dashboard, Telegram), and expires what waited too long.
      proposals?.start();
      messaging.start();
      // The managed strategy versions in force run from the first request on.
      await retrain.start();
      log.info({ webhookUrl, mode, dryRun, strategies: parts.active.strategies().map((s) => s.name) }, 'lendbot started');
      await settleAtStart();
      inbox.release();
      // Events stored before a stop or crash come first, then a full poll.
      await scheduler.runOnce(inboxJob);
      if (config.poll.at_start) await scheduler.runOnce(pollJob);
      parts.instruments.protections.listeningSince(parts.clocks.market.now());
      scheduler.start(jobs);
      scheduler.start(ops.jobs());
      scheduler.start(messaging.jobs);
      scheduler.start(retrain.jobs);
      scheduler.start(wingJobs);
    },
    runJob(name: string) {
      // The operations' and the wings' jobs too (the digest, notifications, retrain, learn, idle-cash): tests run them on their own clock.
      const all = [...jobs, ...ops.jobs(), ...messaging.jobs, ...retrain.jobs, ...wingJobs];
      const job = all.find((candidate) => candidate.name === name);
      if (!job) return Promise.reject(new RangeError(`no job "${name}"; jobs: ${all.map((j) => j.name).join(', ')}`));
      return scheduler.runOnce(job);
    },
    abandonInFlight() {
      const cancelled = bareClient.abandon?.() ?? 0;
      if (cancelled > 0)
        log.warn({ calls: cancelled }, 'marketplace calls abandoned for the stop; an offer among them stays unknown, its money reserved');
      return cancelled;
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
      messaging.stop();
      // No agent call starts after this; one under way finishes in the pipeline's queue.
      await proposals?.stop();
      await operator.stop();
      await intakeStopped;
      await scheduler.stop();
      // A delivery let in just before the listener turned to 503 may still be committing: its
      // event must be in the inbox before the database closes (it is decided after the restart).
      await webhook.settled();
      await pipeline.idle();
      await parts.trading.balance.idle();
      await webhook.close();
      await overrides.afterStop?.();
      parts.marketplace.client.close?.();
      if (!overrides.store) store.close();
      log.info('lendbot stopped');
    },
  };
}
