/**
 * The daemon's recurring jobs on node-cron schedules (seconds allowed: `*\/5 * * * * *`). A job
 * still running when its next tick comes is not started twice, and a failing job is logged and
 * tried again at its next tick; it never stops the daemon.
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from '../log/logger.js';

export interface Job {
  name: string;
  schedule: string;
  run: () => Promise<unknown>;
}

export class Scheduler {
  private readonly tasks: ScheduledTask[] = [];
  private readonly running = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(private readonly log: Logger) {}

  start(jobs: readonly Job[]): void {
    for (const job of jobs) {
      const task = cron.schedule(job.schedule, () => this.runOnce(job), { name: job.name, noOverlap: true });
      this.tasks.push(task);
    }
  }

  /** Runs a job now (also used for the poll at start); joins a run already under way. */
  runOnce(job: Job): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const existing = this.running.get(job.name);
    if (existing) return existing;
    const run = job
      .run()
      .then(() => undefined)
      .catch((error: unknown) => {
        this.log.error({ job: job.name, error: error instanceof Error ? error.message : String(error) }, 'job failed; will try again at its next run');
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
