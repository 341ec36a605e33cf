/**
 * The checks of `lendbot doctor` that ask the marketplace: the credentials (a signed read of the
 * loan request list's first page, the daemon's main read), the clock against the service's `Date`
 * header, and the balance (from the transfer history, as `lendbot api balance` computes it).
 */
import type { Clock } from '../../../clock/clock.js';
import { balanceFromTransfers, formatCents } from '../../../domain/index.js';
import {
  collectPages,
  createMarketplaceClient,
  OPERATOR_HINTS,
  ServiceError,
  type MarketplaceClient,
  shownUrl,
  splitCredentials,
  type ServiceConfig,
} from '../../../service/index.js';
import { errorText, failed, passed, warned, type CheckOutcome } from './check-runner.js';

/** The signature window of marketplace part 5: a clock further off is refused unless corrected. */
const SIGNATURE_WINDOW_SECONDS = 300;
/** A skew below this is ordinary drift, not worth a line of warning. */
const NOTICEABLE_SKEW_SECONDS = 30;

/** A client for the checks: no retries (a check answers now or fails), each attempt within the check's time. */
export function doctorClient(config: ServiceConfig, timeoutMs: number, clock: Clock): MarketplaceClient {
  return createMarketplaceClient(
    { ...config, timeoutMs: Math.min(config.timeoutMs, timeoutMs), retry: { ...config.retry, readRetries: 0 } },
    { clock },
  );
}

export async function checkCredentials(client: MarketplaceClient, baseUrl: string): Promise<CheckOutcome> {
  try {
    const page = await client.listLoanRequests({}, 1);
    return passed(`a signed read of the loan request list was accepted (${page.count} listed)`);
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'NOT_FOUND') return notTheApi(error, baseUrl);
    // The hint goes on the fix line, not twice.
    return failed(error instanceof ServiceError ? `${error.message} [${error.code}]` : errorText(error), refusalFix(error));
  }
}

/**
 * A 404 for the loan request list, which the marketplace always has: the base URL is not the
 * marketplace's root. Most often it already ends in /api/v3, which lendbot adds itself.
 */
function notTheApi(error: ServiceError, baseUrl: string): CheckOutcome {
  const said = `${error.method} ${error.path} answered 404${error.serviceText === undefined ? '' : ` (${error.serviceText})`}`;
  const base = new URL(baseUrl);
  const apiPrefix = /\/api\/v\d+\/?$/.exec(base.pathname);
  if (apiPrefix !== null) {
    base.pathname = base.pathname.slice(0, apiPrefix.index) || '/';
    return failed(
      `${said}: LENDBOT_BASE_URL ends in ${apiPrefix[0].replace(/\/$/, '')}, which lendbot adds itself`,
      `set LENDBOT_BASE_URL to ${shownUrl(base.toString()).replace(/\/$/, '')}`,
    );
  }
  return failed(
    `${said}: ${shownUrl(baseUrl)} is not the marketplace's API`,
    "set LENDBOT_BASE_URL to the marketplace's own address (scheme and host, without /api/v3)",
  );
}

/** What became of the signed read, for the clock's verdict. */
export type SignedRead = 'accepted' | 'timestamp_refused' | 'refused_otherwise';

export function signedReadOf(credentials: CheckOutcome): SignedRead {
  if (credentials.status !== 'fail') return 'accepted';
  return credentials.detail.includes('[AUTH_TIMESTAMP_OUT_OF_RANGE]') ? 'timestamp_refused' : 'refused_otherwise';
}

/** What to fix for a refusal: the operator hint naming the variable, when there is one. */
function refusalFix(error: unknown): string | undefined {
  if (!(error instanceof ServiceError)) return undefined;
  if (error.code === 'NETWORK_ERROR') return 'check LENDBOT_BASE_URL and the network: the marketplace did not answer';
  return OPERATOR_HINTS[error.code];
}

/**
 * Our clock against the `Date` of an answer from the service (any answer: an unsigned GET of the
 * base address is enough). Within the signature window it only warns; beyond it lendbot signs
 * with the service's time when correction is on and the skew is within the configured maximum,
 * and fails only when the service refused our signed read too.
 */
export async function checkClockSkew(
  config: ServiceConfig,
  clock: Clock,
  timeoutMs: number,
  signedRead: SignedRead,
): Promise<CheckOutcome> {
  const before = clock.now();
  let response: Response;
  try {
    // Any answer has a Date: a redirect is not followed (it may lead to another host), only read.
    const { url, authorization } = splitCredentials(config.baseUrl);
    response = await fetch(url, {
      method: 'GET',
      redirect: 'manual',
      headers: authorization === undefined ? {} : { authorization },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return failed(
      `no answer from ${new URL(config.baseUrl).origin} to read its clock: ${networkReason(error)}`,
      'check LENDBOT_BASE_URL and the network: the marketplace did not answer',
    );
  }
  const after = clock.now();
  await response.arrayBuffer().catch(() => undefined);
  const date = response.headers.get('date');
  const serviceMs = date === null ? Number.NaN : Date.parse(date);
  if (Number.isNaN(serviceMs))
    return warned('the service sent no readable Date header: skew unknown', "keep the machine's clock synchronised (NTP)");
  // The Date header has whole seconds: compare with the middle of the exchange, in whole seconds.
  const skew = Math.floor(serviceMs / 1000) - Math.floor((before + after) / 2000);
  const size = Math.abs(skew);
  const said = `the service's clock is ${skew} s from ours`;
  if (size <= NOTICEABLE_SKEW_SECONDS) return passed(said);
  if (size <= SIGNATURE_WINDOW_SECONDS)
    return warned(`${said} (signatures allow ${SIGNATURE_WINDOW_SECONDS} s)`, "synchronise the machine's clock (NTP)");
  const skewSettings = config.clockSkew;
  if (skewSettings?.correct !== false && size <= (skewSettings?.maxSkewSeconds ?? Infinity)) {
    return warned(
      `${said}: beyond the ${SIGNATURE_WINDOW_SECONDS} s signatures allow; lendbot signs with the service's time`,
      "synchronise the machine's clock (NTP)",
    );
  }
  // The service took our signatures all the same: its Date is not the clock it checks them against
  // (the sandbox dates its answers in simulated time).
  if (signedRead === 'accepted')
    return warned(
      `${said}, yet it accepted our signed read: its Date header is not the clock it checks signatures against`,
      "keep the machine's clock synchronised (NTP)",
    );
  if (signedRead === 'refused_otherwise') {
    return warned(
      `${said}: beyond the ${SIGNATURE_WINDOW_SECONDS} s signatures allow; whether the service refuses it shows once the credentials are right`,
      "synchronise the machine's clock (NTP)",
    );
  }
  const why =
    skewSettings?.correct === false
      ? 'LENDBOT_CLOCK_SKEW_CORRECTION is off'
      : `beyond LENDBOT_MAX_CLOCK_SKEW_SECONDS (${skewSettings?.maxSkewSeconds})`;
  return failed(
    `${said}: beyond the ${SIGNATURE_WINDOW_SECONDS} s signatures allow, and ${why}: every call is refused`,
    "synchronise the machine's clock (NTP)",
  );
}

/** ECONNREFUSED, ENOTFOUND, a timeout: what a failed fetch says in a word or two. */
function networkReason(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (cause instanceof Error ? cause.message : String(cause));
}

export async function checkBalance(client: MarketplaceClient): Promise<CheckOutcome> {
  const { items, issues } = await collectPages(client.transferPages());
  const summary = balanceFromTransfers(items);
  const said = `available ${formatCents(summary.availableCents)} (balance ${formatCents(summary.balanceCents)}, ${summary.transfers} transfer${summary.transfers === 1 ? '' : 's'})`;
  if (issues.length > 0)
    return warned(`${said}; ${issues.length} transfer group(s) unreadable, so it may be wrong`, 'lendbot api transfers --all shows them');
  if (summary.availableCents <= 0) return failed(`${said}: nothing to lend`, 'add money to the marketplace account');
  return passed(said);
}
