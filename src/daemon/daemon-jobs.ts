/**
 * The daemon's own scheduled jobs, made of its built parts (daemon-parts.ts) and of the workers
 * only they run (the reconciler, the account sync, the funding): the poll, the inbox pass, the
 * balance, the account sync, the funding of accepted manual offers and the protections' check; and
 * the settling, at start, of the offers a crash or an outage left unsettled. `lendbot` runs them
 * by name (Daemon.runJob).
 */
import type { Job } from '../clock/scheduler.js';
import { MINUTE_MS } from '../clock/time-constants.js';
import { AccountSync } from './account-sync.js';
import type { DaemonParts } from './daemon-parts.js';
import { FundingJob } from './funding-job.js';
import { IntentReconciler, type ListedRequests } from './intent-reconciler.js';
import type { PollHooks } from './poller.js';

export interface DaemonJobs {
  /** Every job by its name, for the scheduler. */
  jobs: Job[];
  /** Run once at start, before the schedules: the events stored before a stop or crash. */
  inboxJob: Job;
  /** Run once at start when `poll.at_start`: a full poll. */
  pollJob: Job;
  /** Settles intents and unknown offers left by a crash or an outage, before anything new is decided. */
  settleAtStart(): Promise<void>;
}

export function daemonJobs(parts: DaemonParts): DaemonJobs {
  const { config, pipeline, store, log, dryRun } = parts;
  const { poller, inbox } = parts.intake;
  const { client } = parts.marketplace;
  const { balance } = parts.trading;
  const { protections } = parts.instruments;
  const clock = parts.clocks.market;
  const { limits } = parts.active;
  const offerExpiryMs = () => limits().offerExpiryMs;
  const component = (name: string) => log.child({ component: name });
  // Scaled by the sandbox's speed, as the health limits are: the clock may be simulated.
  const resends = {
    resends: config.unknown_offers.resends,
    firstWaitMs: config.unknown_offers.first_wait_seconds * 1000 * parts.clocks.speed,
    maxWaitMs: config.unknown_offers.max_wait_minutes * MINUTE_MS * parts.clocks.speed,
  };
  const reconciler = new IntentReconciler({ client, store, clock, log: component('reconcile'), offerExpiryMs, resends: () => resends });
  const accountSync = new AccountSync({ client, store, clock, log: component('sync'), offerExpiryMs });
  const funding = new FundingJob({ client, store, clock, log: component('fund'), dryRun, balance, limits, pipeline });
  // Offers whose outcome is unknown are settled before new requests are decided, so the guard
  // weighs new offers against known money (they reserve meanwhile in any case).
  const settleUnknownOffers = (listed: ListedRequests) => pipeline.exclusive(() => reconciler.reconcile(listed));
  // In a poll, page by page: the offers on a page are settled before its new requests are decided.
  const pollHooks: PollHooks = {
    beforePage: (pageIds) => pipeline.exclusive(() => reconciler.settleListed(pageIds)),
    afterScan: (listed) => pipeline.exclusive(async () => reconciler.expireUnlisted(listed)),
  };
  const pollJob: Job = { name: 'poll', schedule: config.poll.schedule, run: () => poller.poll(pollHooks) };
  const inboxJob: Job = { name: 'inbox', schedule: config.poll.schedule, run: () => inbox.drain() };
  const jobs: Job[] = [
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
  ];

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
  return { jobs, inboxJob, pollJob, settleAtStart };
}
