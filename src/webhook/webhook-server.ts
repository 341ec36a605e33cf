/**
 * The webhook listener (marketplace 6.4). The marketplace deactivates a subscription after 24 hours
 * without a 200, so the listener answers fast, stores every genuine event durably BEFORE it says
 * 200, and says 503 (retry later) rather than 200 when it cannot store. Events verified in the
 * same turn of the event loop share one commit (group-commit.ts).
 *
 * The token's claims are the event (envelope layout) or its data, with `webhook_uuid` and `topic`
 * beside the token (data layout); `auto` reads both (token-layout.ts). A bad delivery leaves one
 * log line and one `onOutcome` call: forged 401, malformed 400, oversized 413, topic header
 * mismatch 400. A run of validly signed tokens refused for their shape raises a warning
 * (refusal-warning.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type RawServerDefault,
} from 'fastify';
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { ConfigurationError } from '../domain/index.js';
import type { InboxRepository, StateRepository } from '../store/index.js';
import type { WebhookEvent, WebhookOutcome } from './event-schema.js';
import { InboxGroupCommit } from './group-commit.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
import { RefusalWarningTracker } from './refusal-warning.js';
import { DEFAULT_TOKEN_LAYOUT, type BesideToken, type TokenLayout, type TokenLayoutSetting } from './token-layout.js';
import { verifyWebhookToken } from './verify-token.js';

const DEFAULT_WEBHOOK_PATH = '/webhooks';
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;
/** The outcome stored for events of topics lendbot does not act on. */
const IGNORED_OUTCOME = 'ignored';

export interface WebhookListenerOptions {
  /** The webhook secret the marketplace gave at subscription (LENDBOT_WEBHOOK_SECRET). */
  secret: string;
  path?: string;
  bodyLimitBytes?: number;
  inbox: InboxRepository;
  clock: Clock;
  log: Logger;
  /** Woken once per newly stored event of a known topic (the daemon's inbox worker). */
  worker?: StoredEventWorker;
  /** Called once per delivery, for metrics. */
  onOutcome?: (outcome: WebhookOutcome) => void;
  /** Which token layouts to accept: `auto` (default) reads envelope and data; the others pin one. */
  tokenLayout?: TokenLayoutSetting;
  /**
   * Where the refused-webhooks warning is kept, and after how many genuine-looking refusals within
   * how long it is raised (default 3 within 10 minutes). Omitted: no warning is kept.
   */
  refusalWarning?: { state: Pick<StateRepository, 'get' | 'set'>; refusals?: number; windowMs?: number };
}

/**
 * Who works through the stored events: the daemon's InboxWorker (src/daemon/inbox-worker.ts),
 * which fetches each new request and hands it to the pipeline. `wake` is called after the event's
 * commit and before its 200 is written (the 200 follows in the next turn of the event loop).
 */
export interface StoredEventWorker {
  wake(event: WebhookEvent): void;
}

export type WebhookServer = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger> & {
  /** false: answer 503 so the marketplace retries later (during shutdown). */
  setAccepting(on: boolean): void;
  /**
   * Resolves once every delivery let in before has been answered (its event stored and its
   * worker woken, or refused). A shutdown waits for it before its last inbox pass: an event let
   * in just before setAccepting(false) and committed after that pass would wait for the next start.
   */
  settled(): Promise<void>;
};

type Answer =
  | { status: 200; outcome: 'accepted' | 'duplicate' | 'unknown_topic' }
  | { status: 400 | 401 | 413 | 503; outcome: WebhookOutcome; code: string; message: string };

const STATUS_TEXT: Record<'accepted' | 'duplicate' | 'unknown_topic', string> = {
  accepted: 'accepted',
  duplicate: 'duplicate',
  unknown_topic: 'ignored',
};

/** Reads `token` from a JSON body, and the clear-text fields the data layout needs; any other field is ignored. */
function tokenFromBody(body: unknown): { token: string; beside: BesideToken } | Answer {
  const malformed = (message: string): Answer => ({ status: 400, outcome: 'malformed', code: 'bad_body', message });
  if (!Buffer.isBuffer(body) || body.length === 0) return malformed('body is empty');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return malformed('body is not JSON');
  }
  if (nestsDeeperThan(parsed, MAX_JSON_DEPTH)) {
    return { status: 400, outcome: 'malformed', code: 'too_deep', message: `body nests deeper than ${MAX_JSON_DEPTH} levels` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return malformed('body is not a JSON object');
  const { token, webhook_uuid, topic } = parsed as Record<string, unknown>;
  if (typeof token !== 'string' || token.length === 0) return malformed('body has no token');
  return { token, beside: { webhook_uuid, topic } };
}

/** Builds the listener; the daemon adds /healthz and /metrics to the same instance, then listens. */
export function buildWebhookServer(options: WebhookListenerOptions): WebhookServer {
  if (options.secret.length === 0) throw new ConfigurationError('the webhook secret is empty: set LENDBOT_WEBHOOK_SECRET');
  const path = options.path ?? DEFAULT_WEBHOOK_PATH;
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const log = options.log.child({ component: 'webhook' });
  const { clock } = options;
  const layout = options.tokenLayout ?? DEFAULT_TOKEN_LAYOUT;
  const warning =
    options.refusalWarning === undefined ? undefined : new RefusalWarningTracker({ ...options.refusalWarning, clock, log, layout });
  // Events verified together are committed together; each 200 still waits for its own commit.
  const inbox = new InboxGroupCommit(options.inbox);
  let accepting = true;
  /** Deliveries let in and not yet answered, and who waits for there to be none (see settled()). */
  let inFlight = 0;
  let waiting: Array<() => void> = [];
  /** Counts a delivery in flight until its response is finished or its connection closed. */
  const letIn = (reply: FastifyReply): void => {
    inFlight += 1;
    reply.raw.once('close', () => {
      inFlight -= 1;
      if (inFlight > 0) return;
      const waiters = waiting;
      waiting = [];
      for (const wake of waiters) wake();
    });
  };

  const app = fastify<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger>({
    loggerInstance: log,
    // One line per delivery is ours to write; fastify's request lines would double it.
    logController: new LogController({ disableRequestLogging: true }),
    // On close, drop every connection instead of waiting for keep-alive peers. Nothing is lost:
    // a delivery cut before its 200 was either stored (a retry is a duplicate) or not (retried).
    forceCloseConnections: true,
  });

  function report(outcome: WebhookOutcome): void {
    try {
      options.onOutcome?.(outcome);
    } catch (error) {
      log.error({ err: error }, 'onOutcome callback failed');
    }
  }

  function answer(reply: FastifyReply, result: Answer, remoteAddress: string): FastifyReply {
    report(result.outcome);
    if (result.status === 200) return reply.code(200).send({ status: STATUS_TEXT[result.outcome] });
    const line = { outcome: result.outcome, code: result.code, reason: result.message, remoteAddress };
    if (result.outcome === 'unavailable') log.error(line, 'webhook not stored');
    else log.warn(line, 'webhook refused');
    if (result.status === 503) void reply.header('retry-after', '60');
    return reply.code(result.status).send({ error: result.outcome, code: result.code, message: result.message });
  }

  async function receive(
    body: unknown,
    topicHeader: string | string[] | undefined,
  ): Promise<Answer & { event?: WebhookEvent; layout?: TokenLayout }> {
    const read = tokenFromBody(body);
    if (!('token' in read)) return read;
    // The data layout takes the topic from the body, or else from the header (both clear text alike).
    const beside = { webhook_uuid: read.beside.webhook_uuid, topic: read.beside.topic ?? topicHeader };
    const verified = await verifyWebhookToken(read.token, options.secret, { clock, layout, beside });
    if (!verified.ok) {
      if (verified.misread) warning?.refused(verified.code, verified.message);
      const status = verified.outcome === 'forged' ? 401 : 400;
      return { status, outcome: verified.outcome, code: verified.code, message: verified.message };
    }
    const { event } = verified;
    if (topicHeader !== event.topic) {
      // In the data layout the topic beside the token is not signed, but it must agree with the header too.
      const message = `X-Svc-Topic header does not match the ${verified.layout === 'envelope' ? 'signed topic' : 'topic beside the token'}`;
      warning?.refused('topic_mismatch', message);
      return { status: 400, outcome: 'topic_mismatch', code: 'topic_mismatch', message };
    }
    try {
      const stored = await inbox.store({
        webhookUuid: event.webhookUuid,
        topic: event.topic,
        data: event.data,
        receivedAtMs: clock.now(),
        // Only the data layout needs it: an envelope's uuid is signed, so its uuid dedupes it, and
        // its NULL hash costs the unique index nothing (NULLs never clash and sort together).
        payloadSha256: verified.layout === 'data' ? verified.payloadSha256 : undefined,
        settledOutcome: event.known ? undefined : IGNORED_OUTCOME,
      });
      if (stored === 'duplicate') return { status: 200, outcome: 'duplicate', event, layout: verified.layout };
    } catch (error) {
      log.error({ err: error, webhookUuid: event.webhookUuid }, 'webhook inbox write failed');
      return { status: 503, outcome: 'unavailable', code: 'store_failed', message: 'event could not be stored; retry later' };
    }
    warning?.stored();
    return { status: 200, outcome: event.known ? 'accepted' : 'unknown_topic', event, layout: verified.layout };
  }

  void app.register((scope, _opts, done) => {
    // The body is read raw and parsed here, whatever its content type, so every failure maps to
    // one of our outcomes instead of fastify's own 400/415 answers.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, parsed) => parsed(null, body));

    scope.addHook('onRequest', (request, reply, next) => {
      if (accepting) {
        letIn(reply);
        return next();
      }
      void answer(
        reply,
        { status: 503, outcome: 'unavailable', code: 'shutting_down', message: 'not accepting webhooks now; retry later' },
        request.ip,
      );
    });

    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.statusCode === 413) {
        return answer(
          reply,
          { status: 413, outcome: 'oversized', code: 'too_large', message: `body exceeds ${bodyLimit} bytes` },
          request.ip,
        );
      }
      if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
        return answer(reply, { status: 400, outcome: 'malformed', code: 'bad_request', message: error.message }, request.ip);
      }
      log.error({ err: error }, 'webhook handler failed');
      return answer(reply, { status: 503, outcome: 'unavailable', code: 'internal', message: 'internal error; retry later' }, request.ip);
    });

    scope.post(path, { bodyLimit }, async (request, reply) => {
      const result = await receive(request.body, request.headers['x-svc-topic']);
      // The layout is logged so an operator can see which one the marketplace sends before pinning it.
      if (result.status === 200)
        log.info({ outcome: result.outcome, webhookUuid: result.event?.webhookUuid, layout: result.layout }, 'webhook received');
      if (result.outcome !== 'accepted' || result.event === undefined) return answer(reply, result, request.ip);
      // The event is committed: wake the pipeline first, and write the 200 once the work it started
      // synchronously (its first marketplace call) has gone out, so answering does not delay it.
      try {
        options.worker?.wake(result.event);
      } catch (error) {
        log.error({ err: error, webhookUuid: result.event.webhookUuid }, 'waking the inbox worker failed');
      }
      setImmediate(() => {
        void answer(reply, result, request.ip);
      });
      return reply;
    });
    done();
  });

  return Object.assign(app, {
    setAccepting(on: boolean) {
      accepting = on;
    },
    settled() {
      return inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve));
    },
  });
}
