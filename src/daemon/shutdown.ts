/**
 * Orderly shutdown: SIGTERM or SIGINT stops intake (the listener answers 503 so the marketplace
 * retries later), finishes work in flight, closes the database and exits 0. A second signal, or
 * the grace period running out, forces exit with code 1. An uncaught error leads to the same
 * orderly stop with a non-zero code.
 */
import { AppError } from '../domain/index.js';

export interface Stoppable {
  stop(): Promise<void>;
}

export function installShutdown(daemon: Stoppable, options: { graceMs: number; log: (line: string) => void }): Promise<void> {
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
      daemon
        .stop()
        .then(() => {
          clearTimeout(timer);
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
