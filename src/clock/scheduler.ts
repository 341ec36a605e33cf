/**
 * The daemon's recurring jobs on node-cron schedules (seconds allowed: `*\/5 * * * * *`). A job
 * still running when its next tick comes is not started twice. A failing job never stops the
 * daemon: it backs off (exponential with jitter, capped at minutes), skipping its ticks until the
 * wait is over, and the log says so once per back-off step; a success ends the back-off.
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { Clock } from './clock.js';
import type { Logger } from '../log/logger.js';
import { Backoff, DEFAULT_BACKOFF, type BackoffSettings } from './backoff.js';

export interface Job {
  name: string;
  schedule: string;
  run: () => Promise<unknown>;
}

export class Scheduler {
  private readonly tasks: ScheduledTask[] = [];
  private readonly running = new Map<string, Promise<void>>();
  private readonly backoff: Backoff<string>;
  private stopped = false;

  constructor(
    private readonly log: Logger,
    clock: Clock,
    settings: BackoffSettings = DEFAULT_BACKOFF,
    random?: () => number,
  ) {
    this.backoff = new Backoff(clock, settings, random);
  }

  /** Schedules the jobs; a job whose schedule is `off` never runs on its own (runOnce still runs it). */
  start(jobs: readonly Job[]): void {
    for (const job of jobs) {
      if (job.schedule === 'off') continue;
      const task = cron.schedule(job.schedule, () => this.tick(job), { name: job.name, noOverlap: true });
      this.tasks.push(task);
    }
  }

  /** A scheduled tick: runs the job unless it is backing off after a failure. */
  tick(job: Job): Promise<void> {
    if (!this.backoff.ready(job.name)) return Promise.resolve();
    return this.runOnce(job);
  }

  /** Runs a job now, back-off or not (the poll at start, `runJob`); joins a run already under way. */
  runOnce(job: Job): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const existing = this.running.get(job.name);
    if (existing) return existing;
    const run = job
      .run()
      .then(() => {
        if (this.backoff.step(job.name) !== undefined) this.log.info({ job: job.name }, 'job succeeded again; back-off over');
        this.backoff.succeeded(job.name);
      })
      .catch((error: unknown) => {
        const step = this.backoff.failed(job.name);
        this.log.error(
          { job: job.name, err: error, failures: step.failures, retryInMs: step.delayMs },
          `job failed; next try in ${Math.round(step.delayMs / 1000)} s`,
        );
      })
      .finally(() => this.running.delete(job.name));
    this.running.set(job.name, run);
    return run;
  }

  /** Stops the schedules and waits for jobs under way to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    // destroy, not only stop: a stopped node-cron task keeps its timer and the process alive.
    for (const task of this.tasks) await task.destroy();
    this.tasks.length = 0;
    await Promise.all(this.running.values());
  }
}
