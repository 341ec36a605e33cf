/**
 * Orderly shutdown: SIGTERM or SIGINT stops intake (the listener answers 503 so the marketplace
 * retries later), finishes work in flight, closes the database and exits 0. A second signal, or
 * the grace period running out, forces exit with code 1. An uncaught error leads to the same
 * orderly stop with a non-zero code.
 *
 * Work in flight waits on the marketplace, which may be slow or silent (a make_offer answered in
 * 30 s, a list that never comes): halfway through the grace period the calls still in flight are
 * abandoned (Daemon.abandonInFlight), so the stop ends within its limit whatever the marketplace
 * does. That is safe: an offer abandoned after it was sent is kept `unknown`, its money reserved,
 * and reconciled after the restart; one not sent yet is not sent.
 */
import { AppError } from '../domain/index.js';

export interface Stoppable {
  stop(): Promise<void>;
  /** Cancels the marketplace calls still in flight; how many there were. */
  abandonInFlight?(): number;
}

export interface ShutdownOptions {
  graceMs: number;
  log: (line: string) => void;
}

export function installShutdown(daemon: Stoppable, options: ShutdownOptions): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = (why: string, exitCode: number): void => {
      if (stopping) {
        options.log(`lendbot: ${why} again; forcing exit`);
        process.exit(1);
      }
      stopping = true;
      options.log(`lendbot: ${why}; stopping (send it again to force)`);
      const timer = setTimeout(() => {
        options.log(`lendbot: still busy after ${options.graceMs} ms; forcing exit`);
        process.exit(1);
      }, options.graceMs);
      timer.unref();
      const abandonAfterMs = options.graceMs / 2;
      const abandon = setTimeout(() => {
        const calls = daemon.abandonInFlight?.() ?? 0;
        if (calls > 0) options.log(`lendbot: ${calls} marketplace call(s) still in flight after ${abandonAfterMs} ms; abandoned`);
      }, abandonAfterMs);
      abandon.unref();
      daemon
        .stop()
        .then(() => {
          clearTimeout(timer);
          clearTimeout(abandon);
          resolve();
          // Everything is closed; exit now rather than wait on a library's stray timer.
          process.exit(exitCode);
        })
        .catch((error: unknown) => {
          options.log(`lendbot: error while stopping: ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        });
    };
    process.on('SIGTERM', () => stop('SIGTERM', 0));
    process.on('SIGINT', () => stop('SIGINT', 0));
    process.on('uncaughtException', (error) => {
      options.log(`lendbot: uncaught error: ${errorText(error)}`);
      stop('uncaught error', 1);
    });
    process.on('unhandledRejection', (reason) => {
      options.log(`lendbot: unhandled rejection: ${reason instanceof Error ? errorText(reason) : String(reason)}`);
      stop('unhandled rejection', 1);
    });
  });
}

/** An expected failure (AppError) is one line; anything else is a bug, stack included. */
function errorText(error: Error): string {
  return error instanceof AppError ? error.userText() : (error.stack ?? error.message);
}
