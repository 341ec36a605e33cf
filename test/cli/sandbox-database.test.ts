import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxDatabase } from '../../src/cli/commands/run/sandbox-database.js';
import { silentLogger } from '../../src/log/logger.js';
import { openStore } from '../../src/store/index.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';

const dir = mkdtempSync(join(tmpdir(), 'lendbot-sandbox-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the database of a sandbox run', () => {
  it('moves the default path to an emptied sandbox.db beside it, leaving the live file alone', () => {
    const live = join(dir, 'lendbot.db');
    writeFileSync(live, 'live data');
    writeFileSync(join(dir, 'sandbox.db'), 'an earlier sandbox run');
    writeFileSync(join(dir, 'sandbox.db-wal'), 'its log');
    expect(sandboxDatabase(live, live, silentLogger)).toBe(join(dir, 'sandbox.db'));
    expect(existsSync(join(dir, 'sandbox.db'))).toBe(false);
    expect(existsSync(join(dir, 'sandbox.db-wal'))).toBe(false);
    expect(existsSync(live)).toBe(true);
  });

  it('accepts a chosen path that is new or has no decisions', () => {
    expect(sandboxDatabase(join(dir, 'new.db'), join(dir, 'lendbot.db'), silentLogger)).toBe(join(dir, 'new.db'));
    const empty = join(dir, 'empty.db');
    openStore(empty).close();
    expect(sandboxDatabase(empty, join(dir, 'lendbot.db'), silentLogger)).toBe(empty);
  });

  it('refuses a chosen path that holds decisions, since sandbox ids would collide', () => {
    const used = join(dir, 'used.db');
    const store = openStore(used);
    store.decisions.record({ loanRequestId: 1001, action: 'skip', reasons: storedReasons(['test']), dryRun: false, decidedAtMs: 0 });
    store.close();
    expect(() => sandboxDatabase(used, join(dir, 'lendbot.db'), silentLogger)).toThrow(
      `${used} holds decisions from another run, but the sandbox market starts afresh each time and its request ids would collide; point LENDBOT_DB (or --db) at a new file, or drop --sandbox (and LENDBOT_SANDBOX) and set LENDBOT_BASE_URL to trade for real`,
    );
  });
});
