import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadStrategyFile } from '../../src/engine/index.js';
import { HotReloader, type ActiveConfig } from '../../src/ops/hot-reload.js';
import { riskLimitsSchema } from '../../src/risk/index.js';
import { OFFER_ALL, waitFor } from '../daemon/daemon-harness.js';
import { captureLog } from '../log/log-capture.js';

let dir: string;
let strategyFile: string;
let configFile: string;
let reloader: HotReloader;
let logs: Array<Record<string, unknown>>;
let applied: ActiveConfig[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lendbot-reload-'));
  strategyFile = join(dir, 'offer-all.yaml');
  copyFileSync(OFFER_ALL, strategyFile);
  configFile = join(dir, 'lendbot.yaml');
  writeFileSync(configFile, 'risk:\n  max_offers_per_day: 5\n');
  const captured = captureLog();
  logs = captured.lines;
  applied = [];
  reloader = new HotReloader({
    strategyFiles: [strategyFile],
    configFile,
    initial: { strategies: [await loadStrategyFile(strategyFile)], limits: riskLimitsSchema.parse({ max_offers_per_day: 5 }) },
    log: captured.log,
    onChange: (next) => {
      applied.push(next);
    },
    debounceMs: 50,
    pollIntervalMs: 200,
  });
  await reloader.start();
});
afterEach(() => {
  reloader.stop();
  rmSync(dir, { recursive: true, force: true });
});

const messages = (): unknown[] => logs.map((line) => line.msg);

describe('hot reload', () => {
  it('puts a valid strategy edit into force within seconds, with its new version', async () => {
    const before = reloader.current().strategies[0]!;
    writeFileSync(
      strategyFile,
      readFileSync(strategyFile, 'utf8')
        .replace('version: "1.0.0"', 'version: "1.1.0"')
        .replace('target_return: 0.05', 'target_return: 0.07'),
    );
    await waitFor(() => reloader.current().strategies[0]?.version === '1.1.0', 'the reload');
    const after = reloader.current().strategies[0]!;
    expect(after.contentHash).not.toBe(before.contentHash);
    expect(applied).toHaveLength(1);
    expect(logs.at(-1)).toMatchObject({
      level: 30,
      msg: 'strategies reloaded',
      strategies: [{ name: 'offer-all', version: '1.1.0', contentHash: after.contentHash }],
    });
  });

  it('rejects an invalid strategy edit with its line-numbered errors and keeps the previous version', async () => {
    const before = reloader.current();
    writeFileSync(strategyFile, readFileSync(strategyFile, 'utf8').replace('target_return: 0.05', 'target_retrun: 0.05'));
    await waitFor(() => messages().includes('strategy edit rejected; the previous strategies stay active'), 'the rejection');
    expect(logs.at(-1)).toEqual(
      expect.objectContaining({
        level: 50,
        problems: [
          `${strategyFile}:26:3 pricing.target_return: expected a number or a param reference such as "$min_credit_score"`,
          `${strategyFile}:26:3 pricing.target_retrun: unknown key "target_retrun"; did you mean "target_return"?`,
        ],
      }),
    );
    expect(reloader.current()).toBe(before);
    expect(applied).toEqual([]);
  });

  it('reloads the risk section, and keeps the limits when an edit is invalid', async () => {
    writeFileSync(configFile, 'risk:\n  max_offers_per_day: 9\n  kill_switch: true\n');
    await waitFor(() => reloader.current().limits.maxOffersPerDay === 9, 'the new limits');
    expect(reloader.current().limits.killSwitch).toBe(true);
    expect(messages()).toEqual(['risk limits reloaded']);
    writeFileSync(configFile, 'risk:\n  max_offers_per_day: -1\n');
    await waitFor(() => messages().length === 2, 'the rejection');
    expect(logs.at(-1)).toMatchObject({
      msg: 'risk edit rejected; the previous limits stay active',
      problems: [expect.stringMatching(/^.*lendbot\.yaml:2:23 risk\.max_offers_per_day: /)],
    });
    expect(reloader.current().limits.maxOffersPerDay).toBe(9);
  });
});
