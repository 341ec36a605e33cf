import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigFileError } from '../../src/config/index.js';
import { applyEnv, daemonConfigSchema, loadDaemonConfig } from '../../src/daemon/daemon-config.js';
import { ConfigurationError } from '../../src/domain/index.js';

const SHIPPED = fileURLToPath(new URL('../../config/lendbot.yaml', import.meta.url));
const REFERENCE = fileURLToPath(new URL('../../config/lendbot.reference.yaml', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'lendbot-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('the daemon configuration', () => {
  it('ships a starter config/lendbot.yaml and the full config/lendbot.reference.yaml, both valid and both the defaults', async () => {
    const shipped = await loadDaemonConfig(SHIPPED, {});
    // The starter omits what the reference spells out: the same effective configuration.
    expect(shipped).toEqual(await loadDaemonConfig(REFERENCE, {}));
    expect(shipped).toEqual(daemonConfigSchema.parse({}));
    expect(shipped.risk.allowedRiskLevels).toEqual([0, 1, 2]);
    expect(shipped.webhook).toEqual({
      host: '0.0.0.0',
      port: 8080,
      path: '/webhooks',
      body_limit_bytes: 65_536,
      token_layout: 'auto',
      warn_after: { refusals: 3, within_minutes: 10 },
    });
  });

  it('takes off as a job schedule (the job then never runs on its own)', () => {
    const config = daemonConfigSchema.parse({ jobs: { fund_accepted: 'off' }, poll: { schedule: 'off' } });
    expect([config.jobs.fund_accepted, config.poll.schedule]).toEqual(['off', 'off']);
    expect(daemonConfigSchema.safeParse({ jobs: { reconcile: 'never' } }).success).toBe(false);
  });

  it('lets the environment override the file', async () => {
    const config = await loadDaemonConfig(SHIPPED, {
      LENDBOT_DB: '/data/x.db',
      LENDBOT_DRY_RUN: 'yes',
      LENDBOT_LOG_LEVEL: 'debug',
      LENDBOT_WEBHOOK_PORT: '9000',
      LENDBOT_POLL: '*/5 * * * * *',
    });
    expect(config).toMatchObject({
      db: '/data/x.db',
      dry_run: true,
      log_level: 'debug',
      webhook: { port: 9000 },
      poll: { schedule: '*/5 * * * * *' },
    });
  });

  it('names the variable when the environment is wrong', () => {
    const defaults = daemonConfigSchema.parse({});
    expect(() => applyEnv(defaults, { LENDBOT_POLL: 'every minute' })).toThrow(
      new ConfigurationError('LENDBOT_POLL is not a cron expression (got "every minute")'),
    );
    expect(() => applyEnv(defaults, { LENDBOT_DRY_RUN: 'maybe' })).toThrow('LENDBOT_DRY_RUN must be true or false (got "maybe")');
    expect(() => applyEnv(defaults, { LENDBOT_WEBHOOK_PORT: '70000' })).toThrow('LENDBOT_WEBHOOK_PORT must be a port number (got "70000")');
  });

  it('reports every problem of a bad file with its line and column', async () => {
    const path = file(
      'bad.yaml',
      ['db: data/x.db', 'poll:', '  schedule: "every minute"', 'risk:', '  min_cash_reserve: -5', 'webhok:', '  port: 1', ''].join('\n'),
    );
    const error = await loadDaemonConfig(path, {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigFileError);
    const lines = (error as ConfigFileError).message.split('\n').slice(1);
    expect(lines).toEqual([
      `${path}:3:13 poll.schedule: not a cron expression (e.g. "* * * * *" every minute, "*/5 * * * * *" every 5 seconds) or off`,
      `${path}:5:21 risk.min_cash_reserve: must not be negative`,
      `${path}:6:1 webhok: unknown key "webhok"; did you mean "webhook"?`,
    ]);
  });

  it('names the closest key for a typo inside a section that has defaults (risk, webhook)', async () => {
    const path = file('typo.yaml', ['risk:', '  max_per_borower: 100', 'webhook:', '  prot: 8080', ''].join('\n'));
    const error = await loadDaemonConfig(path, {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigFileError);
    expect((error as ConfigFileError).message.split('\n').slice(1)).toEqual([
      `${path}:2:3 risk.max_per_borower: unknown key "max_per_borower"; did you mean "max_per_borrower"?`,
      `${path}:4:3 webhook.prot: unknown key "prot"; did you mean "port"?`,
    ]);
  });

  it('reads a money cap as USD or as a share of the capital, and names the three forms on a bad one, by line', async () => {
    const good = file(
      'caps.yaml',
      ['risk:', '  max_open_exposure: { share: 0.75 }', '  max_per_borrower: 1500', '  max_amount_per_day: null', ''].join('\n'),
    );
    const config = await loadDaemonConfig(good, {});
    expect(config.risk).toMatchObject({ maxOpenExposureShare: 0.75, maxPerBorrowerCents: 150_000, maxAmountPerDayCents: undefined });
    const path = file(
      'bad-caps.yaml',
      ['risk:', '  max_open_exposure: { share: 1.5 }', '  max_per_borrower: { shares: 0.2 }', '  max_amount_per_day: lots', ''].join('\n'),
    );
    const error = await loadDaemonConfig(path, {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigFileError);
    const forms = 'expected a USD amount (10000), a share of the capital ({ share: 0.9 }) or null (no cap)';
    expect((error as ConfigFileError).message.split('\n').slice(1)).toEqual([
      `${path}:2:22 risk.max_open_exposure: share: a share is at most 1 (the whole capital); ${forms}`,
      `${path}:3:21 risk.max_per_borrower: unknown key "shares"; ${forms}`,
      `${path}:4:23 risk.max_amount_per_day: expected a decimal amount such as "1250.00" (got "lots"); ${forms}`,
    ]);
  });
});
