/**
 * Fail fast at start, degrade later (issue 28). Before `lendbot run` binds a port or starts a
 * job, it makes one signed read of the marketplace; a misconfiguration found there, or a port
 * another program holds, ends start-up with one line that names what to change. Refusals that
 * begin after a successful start keep the daemon running, degraded (src/ops/service-health.ts).
 */
import { sleepNotHoldingExit, type Sleep } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { ConfigurationError } from '../domain/index.js';
import { ServiceError, type MarketplaceApi } from '../service/index.js';

/** What the start-up read needs: the first page of the transfer history (the balance's source). */
export type StartCheckClient = Pick<MarketplaceApi, 'listTransfers'>;

/**
 * The longest the start-up read may take, whatever the tries: a host that never answers costs the
 * client's timeout (LENDBOT_HTTP_TIMEOUT_MS, 20 s) on each of its tries, over a minute and a half.
 */
const START_CHECK_BUDGET_MS = 30_000;

export interface StartCheckOptions {
  baseUrl: string;
  /** How many times the client tries a read (LENDBOT_READ_RETRIES + 1), for the line. */
  tries: number;
  log: Logger;
  budgetMs?: number;
  /** Waits out the budget (default a timer that keeps no process alive). */
  sleep?: Sleep;
}

/**
 * One signed read: the first page of the transfer history, which the balance needs first anyway.
 * The client signs it after any clock-skew correction (src/service/clock-skew.ts) and retries a
 * network failure itself, a bounded number of times with back-off on its injected sleep
 * (LENDBOT_READ_RETRIES extra tries, 500 ms doubling: about 7.5 s by default), so what reaches
 * here is the answer after those tries.
 *
 * Ends start-up (throws a one-line AppError) when the credentials are refused, the base URL cannot
 * be reached, or what answers there is not the marketplace. A service that is there but failing
 * (5xx, 429) is an outage, not a misconfiguration: the daemon starts and degrades; the failure
 * is returned so health says degraded from the first second, not only after a few failed polls.
 */
export async function checkMarketplaceAtStart(client: StartCheckClient, options: StartCheckOptions): Promise<ServiceError | undefined> {
  const budgetMs = options.budgetMs ?? START_CHECK_BUDGET_MS;
  try {
    const read = client.listTransfers(1).then(() => 'answered' as const);
    const outcome = await Promise.race([read, (options.sleep ?? sleepNotHoldingExit)(budgetMs).then(() => 'no answer' as const)]);
    // The read left behind ends with the process, which this line stops.
    read.catch(() => undefined);
    if (outcome === 'no answer') {
      throw new ConfigurationError(
        `no answer from the marketplace at ${originOf(options.baseUrl)} within ${Math.round(budgetMs / 1000)} s: check LENDBOT_BASE_URL and the network`,
      );
    }
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const refusal = startRefusal(error, options);
    if (refusal !== undefined) throw refusal;
    options.log.warn(
      { code: error.code, reason: error.message },
      'the marketplace is failing at start; starting anyway, degraded until it answers',
    );
    // The caller keeps /healthz degraded until a poll succeeds: the warning's promise.
    return error;
  }
  return undefined;
}

/** The one line that ends start-up for a failed start-up read, or undefined to start anyway. */
function startRefusal(error: ServiceError, options: { baseUrl: string; tries: number }): ConfigurationError | undefined {
  const origin = originOf(options.baseUrl);
  if (error.code.startsWith('AUTH_'))
    return new ConfigurationError(`the marketplace refused lendbot's credentials at start: ${error.userText()}`);
  if (error.code === 'NETWORK_ERROR') {
    const tries = options.tries === 1 ? '1 try' : `${options.tries} tries`;
    return new ConfigurationError(
      `cannot reach the marketplace at ${origin} (${networkReason(error)}, ${tries}): check LENDBOT_BASE_URL and the network`,
    );
  }
  if (error.code === 'SERVER_ERROR' || error.code === 'RATE_LIMITED') return undefined;
  return new ConfigurationError(`${origin} does not answer as the marketplace does: ${error.userText()}; check LENDBOT_BASE_URL`);
}

/** A port taken by another program (or not ours to take): one line naming it and what to change. */
export interface ListenerSetting {
  /** What listens there: 'the webhook listener', 'the operator listener'. */
  what: string;
  host: string;
  port: number;
  /** Where the port is set: 'webhook.port or LENDBOT_WEBHOOK_PORT'. */
  setting: string;
}

/** Runs `listen`; a bind failure the operator can fix becomes a one-line ConfigurationError. */
export async function listenOrExplain(listen: () => Promise<void>, where: ListenerSetting): Promise<void> {
  try {
    await listen();
  } catch (error) {
    throw bindRefusal(error, where) ?? error;
  }
}

function bindRefusal(error: unknown, where: ListenerSetting): ConfigurationError | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const at = `port ${where.port} (${where.what}, ${where.host})`;
  const change = `set ${where.setting} to another port`;
  if (code === 'EADDRINUSE') return new ConfigurationError(`${at} is in use by another program: stop it or ${change}`);
  if (code === 'EACCES') return new ConfigurationError(`${at} needs privileges lendbot does not have: ${change} (1024 or above)`);
  if (code === 'EADDRNOTAVAIL')
    return new ConfigurationError(`${at}: ${where.host} is not an address of this machine; check the host setting beside ${where.setting}`);
  return undefined;
}

/** ENOTFOUND, ECONNREFUSED, a timeout: the cause's code when there is one, else the message. */
function networkReason(error: ServiceError): string {
  const match = /network failure \(([^)]+)\)/.exec(error.message);
  return match?.[1] ?? error.message;
}

function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl;
  }
}
