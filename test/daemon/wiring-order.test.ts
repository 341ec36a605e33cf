/**
 * Nothing in the daemon's composition is used before it exists. The composition root once built
 * the service health and the protections with closures calling `ops.notify`, 110 lines before
 * `ops` was declared: a notification sent earlier than that line would have thrown a TypeError
 * from inside a client call. Now the notifier is a built part made before both (daemon-parts.ts).
 *
 * Two checks: a daemon with notifications on sends the notification of its earliest job (before
 * start, through the service health, to a real HTTP receiver), and no file of the composition
 * refers to a variable above its declaration (ESLint's no-use-before-define, closures included).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { freePort } from '../../src/daemon/free-port.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { createMarketplaceClient, DEFAULT_RETRY } from '../../src/service/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { captureLog } from '../log/log-capture.js';
import { startNotificationReceiver, type NotificationReceiver } from '../messaging/notification-receiver.js';
import { startFixtureServer, type FixtureServer } from '../service/fixture-server.js';
import { OFFER_ALL } from './daemon-harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The files that assemble the daemon and attach its features. */
const COMPOSITION = [
  'src/daemon/daemon.ts',
  'src/daemon/daemon-parts.ts',
  'src/daemon/daemon-jobs.ts',
  'src/ops/attach-ops.ts',
  'src/operator/attach-operator.ts',
  'src/operator/agent-context.ts',
  'src/cli/commands/mcp/stdio-context.ts',
];

let dir: string;
let market: FixtureServer;
let receiver: NotificationReceiver;
let store: Store;
let daemon: Daemon | undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lendbot-wiring-'));
  // The marketplace refuses our calls (a wrong secret key): the service health notifies it.
  market = await startFixtureServer({ apiKey: 'key', secretKey: 'the-right-secret' });
  receiver = await startNotificationReceiver();
});

afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  store.close();
  await market.close();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the daemon wiring', () => {
  it('sends the notification of its earliest job, before start, to a real receiver', async () => {
    const config = daemonConfigSchema.parse({
      db: join(dir, 'lendbot.db'),
      webhook: { host: '127.0.0.1', port: await freePort() },
      ops: { port: 0 },
      poll: { schedule: 'off', at_start: false },
      jobs: { balance_refresh: 'off', reconcile: 'off', fund_accepted: 'off', protections: 'off' },
      notifications: { url: receiver.url, retries: 0 },
    });
    const clock = new ManualClock(Date.now());
    const { log, lines } = captureLog('debug');
    store = openStore(config.db);
    const client = createMarketplaceClient(
      {
        baseUrl: market.url,
        apiKey: 'key',
        secretKey: 'a-wrong-secret',
        signatureMode: 'timestamp-secret',
        numericRangeFormat: 'min-max-params',
        timeoutMs: 5000,
        retry: { ...DEFAULT_RETRY, readRetries: 0 },
      },
      { clock },
    );
    daemon = await createDaemon(
      config,
      {},
      { client, clock, store, log, strategies: [await loadStrategyFile(OFFER_ALL)], webhookSecret: 'wiring-webhook-secret' },
    );

    // The first job that can run: the balance read, refused (403 Invalid HMAC).
    await daemon.runJob('balance');
    await expect.poll(() => receiver.received.map((body) => body.event)).toEqual(['service_degraded']);
    expect(receiver.received[0]?.data).toMatchObject({ code: 'AUTH_INVALID_HMAC' });
    const failures = lines.filter((line) => JSON.stringify(line).includes('TypeError'));
    expect(failures).toEqual([]);
  });

  it('refers to nothing above its declaration in the files that assemble it', async () => {
    const eslint = new ESLint({
      cwd: root,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser },
          plugins: { '@typescript-eslint': tseslint.plugin },
          rules: {
            // variables: a closure that reads a `const` declared below it counts too; function
            // declarations are hoisted whole, and types cost nothing at run time.
            '@typescript-eslint/no-use-before-define': [
              'error',
              { functions: false, classes: true, variables: true, typedefs: false, ignoreTypeReferences: true },
            ],
          },
        },
      ],
    });
    const results = await eslint.lintFiles(COMPOSITION);
    expect(results).toHaveLength(COMPOSITION.length);
    const used = results.flatMap((result) =>
      result.messages.map((message) => `${result.filePath.slice(root.length)}:${message.line} ${message.message}`),
    );
    expect(used).toEqual([]);
  });
});
