/**
 * What the `lendbot doctor` tests share: a temp dir with config files on free ports, the fixture
 * marketplace with a page of loan requests and money on the account, the environment pointing at
 * it, and the line of one check. `doctorHarness()` is called once per test file; its `cleanup`
 * closes what a test started (afterEach) and `remove` deletes the dir (afterAll).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/daemon/free-port.js';
import { pageOf, startFixtureServer, type FixtureServer } from '../service/fixture-server.js';
import { loanRequestJson, transferGroupJson } from '../service/fixtures/resources.js';

export const BALANCED = fileURLToPath(new URL('../../strategies/balanced.yaml', import.meta.url));

export interface ConfigOptions {
  db?: string;
  strategies?: string[];
  webhookPort?: number;
  opsPort?: number;
  /** `webhook.token_layout`, when the test pins one. */
  tokenLayout?: string;
  /** More lines at the end of the file. */
  extra?: string[];
}

export interface DoctorHarness {
  dir: string;
  /** Run at the end of the test (afterEach), last added first. */
  closers: Array<() => Promise<void>>;
  writeConfig(options?: ConfigOptions): Promise<string>;
  fixtureMarketplace(options?: { nowSeconds?: () => number }): Promise<FixtureServer>;
  cleanup(): Promise<void>;
  remove(): void;
}

export function doctorHarness(): DoctorHarness {
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-doctor-'));
  const closers: Array<() => Promise<void>> = [];
  let configs = 0;
  return {
    dir,
    closers,
    /** A config in the temp dir: free ports (no daemon listens there) unless given, a database file there. */
    async writeConfig(options: ConfigOptions = {}): Promise<string> {
      configs += 1;
      const file = join(dir, `lendbot-${configs}.yaml`);
      const lines = [
        `db: ${JSON.stringify(options.db ?? join(dir, `lendbot-${configs}.db`))}`,
        'strategies:',
        ...(options.strategies ?? [BALANCED]).map((strategy) => `  - ${JSON.stringify(strategy)}`),
        'webhook:',
        '  host: 127.0.0.1',
        `  port: ${options.webhookPort ?? (await freePort())}`,
        ...(options.tokenLayout === undefined ? [] : [`  token_layout: ${options.tokenLayout}`]),
        'ops:',
        '  host: 127.0.0.1',
        `  port: ${options.opsPort ?? (await freePort())}`,
        ...(options.extra ?? []),
        '',
      ];
      writeFileSync(file, lines.join('\n'));
      return file;
    },
    /** The fixture marketplace with a page of loan requests and 1000.00 added to the account. */
    async fixtureMarketplace(options: { nowSeconds?: () => number } = {}): Promise<FixtureServer> {
      const server = await startFixtureServer({ apiKey: 'doctor-key', secretKey: 'doctor-secret', ...options });
      server.route('GET /api/v3/loan_requests/', (_request, s) =>
        pageOf(s, '/api/v3/loan_requests/', [loanRequestJson(1), loanRequestJson(2)], 1, 10),
      );
      server.route('GET /api/v3/transfer_history/', (_request, s) =>
        pageOf(s, '/api/v3/transfer_history/', [transferGroupJson('2026-11-19', [['processed', 'Add Money', '1000.00']])], 1, 10),
      );
      closers.push(() => server.close());
      return server;
    },
    async cleanup() {
      while (closers.length > 0) await closers.pop()?.();
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The environment of a lendbot talking to the fixture marketplace (base URL overridable). */
export function fixtureEnv(server: FixtureServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    LENDBOT_BASE_URL: server.url,
    LENDBOT_API_KEY: 'doctor-key',
    LENDBOT_SECRET_KEY: 'doctor-secret',
    LENDBOT_WEBHOOK_SECRET: 'whsec',
    ...extra,
  };
}

/** The line of one check, in the plain (not a terminal) form: `ok   NAME  detail`. */
export function lineOf(stdout: string, name: string): string {
  return stdout.split('\n').find((line) => new RegExp(`^\\S+\\s+${name}\\s`).test(line)) ?? `(no ${name} line in:\n${stdout})`;
}

/** The `fix:` line right under one check's line, or a note that there is none. */
export function fixOf(stdout: string, name: string): string {
  const lines = stdout.split('\n');
  const at = lines.indexOf(lineOf(stdout, name));
  const next = at < 0 ? undefined : lines[at + 1];
  return next !== undefined && /^\s+fix: /.test(next) ? next.trim() : `(no fix under the ${name} line in:\n${stdout})`;
}
