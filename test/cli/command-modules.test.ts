/**
 * What a command loads decides its start-up time and the daemon's resident memory: `lendbot
 * backtest` must not load the daemon (its web server, metrics, store, logger), and the daemon must
 * not load backtesting's reports and tuner (docs/performance.md, "Whole commands"). Each case
 * imports a module in a node process of its own, with a loader hook that prints every module
 * resolved, and looks at the list.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'lendbot-modules-'));
const hooks = join(dir, 'hooks.mjs');
writeFileSync(
  hooks,
  'export async function resolve(specifier, context, next) {\n  const resolved = await next(specifier, context);\n  process.stderr.write(`LOADED ${resolved.url}\\n`);\n  return resolved;\n}\n',
);
const register = join(dir, 'register.mjs');
writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every module resolved while importing `source` (a path from the repository's root), as paths from it. */
function modulesLoadedBy(source: string): string[] {
  const url = new URL(source, ROOT).href;
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--import', pathToFileURL(register).href, '--input-type=module', '-e', `await import(${JSON.stringify(url)});`],
    {
      cwd: new URL('.', ROOT),
      encoding: 'utf8',
    },
  );
  expect(run.status, run.stderr).toBe(0);
  const root = ROOT.href;
  return run.stderr
    .split('\n')
    .filter((line) => line.startsWith('LOADED '))
    .map((line) => line.slice('LOADED '.length))
    .map((loaded) => (loaded.startsWith(root) ? loaded.slice(root.length) : loaded));
}

/** The loaded modules that start with any of `prefixes`. */
const under = (loaded: readonly string[], prefixes: readonly string[]): string[] =>
  loaded.filter((path) => prefixes.some((prefix) => path.includes(prefix)));

describe('what a command loads', () => {
  it('the backtest command loads neither the daemon nor its web server, metrics, database driver, HTTP client or Ajv', () => {
    const loaded = modulesLoadedBy('src/cli/commands/backtest/index.ts');
    expect(loaded).toContain('src/backtest/run-backtest.ts');
    expect(
      under(loaded, [
        'src/daemon/daemon.ts',
        'src/cli/commands/run/index.ts',
        'src/store/index.ts',
        'src/store/database.ts',
        'src/service/index.ts',
        'src/service/http-transport.ts',
        'src/log/logger.ts',
        'node_modules/fastify/',
        'node_modules/prom-client/',
        'node_modules/better-sqlite3/',
        // The notifier's got, reached through the daemon config's notifications section (messaging/notifications-config.ts).
        'node_modules/got/',
        // The recording check's code is written ahead of time (src/recording/line-check.ts).
        'node_modules/ajv/dist/2020',
        'node_modules/ajv/dist/core',
      ]),
    ).toEqual([]);
  });

  it("the daemon loads none of backtesting's reports, draws or tuner", () => {
    const loaded = modulesLoadedBy('src/daemon/daemon.ts');
    expect(loaded).toContain('src/money/cash-flow-forecast.ts');
    expect(under(loaded, ['src/backtest/index.ts', 'src/backtest/report/', 'src/backtest/tune/', 'src/backtest/run-backtest.ts'])).toEqual(
      [],
    );
  });
});
