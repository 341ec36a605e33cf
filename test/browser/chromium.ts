/**
 * The browser of the browser tests: Debian's chromium (browsers cannot be downloaded here),
 * driven by playwright-core. Found at LENDBOT_CHROMIUM, /usr/bin/chromium or chromium-browser on
 * the PATH. Without one the tests skip and say why, unless LENDBOT_REQUIRE_BROWSER=1 (CI), where
 * a missing browser is a failure: a suite that silently skips would prove nothing.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
const ON_PATH = ['chromium', 'chromium-browser'];

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The chromium to launch, or why there is none. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): { path: string } | { missing: string } {
  const chosen = env.LENDBOT_CHROMIUM?.trim();
  // A path someone set is the one they want: no falling back to another browser behind their back.
  if (chosen) return executable(chosen) ? { path: chosen } : { missing: `LENDBOT_CHROMIUM=${chosen} is not an executable file` };
  const onPath = (env.PATH ?? '').split(delimiter).flatMap((dir) => (dir === '' ? [] : ON_PATH.map((name) => join(dir, name))));
  const found = [...CANDIDATES, ...onPath].find(executable);
  return found === undefined ? { missing: 'no chromium found (apt-get install chromium, or set LENDBOT_CHROMIUM)' } : { path: found };
}

/** Whether the browser tests must run (CI), so that a missing browser fails them. */
export const browserRequired = process.env.LENDBOT_REQUIRE_BROWSER === '1';

const found = findChromium();
export const CHROMIUM = 'path' in found ? found.path : undefined;

/** Why browser tests are skipped here (undefined when a browser was found). */
export const skipReason =
  'missing' in found ? `${found.missing}: browser tests skipped (LENDBOT_REQUIRE_BROWSER=1 makes that a failure)` : undefined;

/** Launches chromium headless; `--no-sandbox` because CI containers run as root, where its sandbox cannot start. */
export async function launchChromium(): Promise<Browser> {
  if (CHROMIUM === undefined) throw new Error(skipReason);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}
