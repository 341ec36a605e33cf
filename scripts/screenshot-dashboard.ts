/**
 * Screenshots of the dashboard for docs/dashboard.md: starts `lendbot run --sandbox` (what
 * `npm start` runs, with the shipped configuration, a database and a reports folder of its own
 * in a temp dir, free ports and an operator token), waits until decisions and loans have come
 * in, and writes PNGs of the viewport (1280×800) to the folder given (default docs/images/).
 *
 *   node --import tsx scripts/screenshot-dashboard.ts [folder]
 *
 * Needs Debian's chromium (apt-get install chromium, or LENDBOT_CHROMIUM=/path/to/chrome).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { freePort } from '../src/daemon/free-port.js';
import type { DecisionsAnswer, LoansAnswer } from '../src/operator/api/api-types.js';
import { launchChromium } from '../test/browser/chromium.js';
import { writeReport } from '../test/operator/dashboard-daemon.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WAIT_MS = 120_000;

const outDir = resolve(process.argv[2] ?? join(ROOT, 'docs/images'));
mkdirSync(outDir, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'lendbot-screenshots-'));
const reportsDir = join(work, 'reports');
mkdirSync(reportsDir);
writeReport(reportsDir, 'balanced-last-month.html');

// The shipped configuration, with strategies found from anywhere and the reports in the temp dir.
const config = parseDocument(readFileSync(join(ROOT, 'config/lendbot.yaml'), 'utf8'));
const strategies = config.toJS().strategies as string[];
config.set(
  'strategies',
  strategies.map((file) => resolve(ROOT, file)),
);
config.setIn(['ops', 'reports_dir'], reportsDir);
writeFileSync(join(work, 'lendbot.yaml'), config.toString());

const token = randomBytes(18).toString('base64url');
const opsPort = await freePort();
const base = `http://127.0.0.1:${opsPort}`;
const daemon = spawn(
  process.execPath,
  [join(ROOT, 'bin/lendbot.js'), 'run', '--sandbox', '--config', join(work, 'lendbot.yaml'), '--db', join(work, 'sandbox.db')],
  {
    cwd: ROOT,
    env: {
      ...process.env,
      LENDBOT_OPS_PORT: String(opsPort),
      LENDBOT_WEBHOOK_PORT: String(await freePort()),
      LENDBOT_OPERATOR_TOKEN: token,
      LENDBOT_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
const exited = new Promise<void>((done) => daemon.once('exit', () => done()));

async function api<T>(path: string): Promise<T | undefined> {
  try {
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return response.ok ? ((await response.json()) as T) : undefined;
  } catch {
    return undefined; // not listening yet
  }
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 1000));
  }
}

try {
  await until('decisions and loans', async () => {
    const decisions = await api<DecisionsAnswer>('/api/decisions?limit=40');
    const loans = await api<LoansAnswer>('/api/loans');
    return (decisions?.decisions.length ?? 0) >= 40 && (loans?.loans.length ?? 0) >= 8;
  });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(base);
    await page.getByTestId('token-input').fill(token);
    await page.getByTestId('sign-in-button').click();
    await page.getByTestId('signed-in').waitFor();
    await page.getByTestId('balance').filter({ hasText: '$' }).waitFor();
    await page.getByTestId('decision-row').first().waitFor();
    await page.waitForTimeout(1000);
    await page.screenshot({ path: join(outDir, 'dashboard-overview.png') });

    // Strings: this script's TypeScript has no DOM types; the page has the DOM.
    await page.evaluate("document.getElementById('decisions-title').scrollIntoView()");
    await page.locator('[data-testid="decision-row"][data-action="offer"]').first().click();
    await page.getByTestId('explanation-contributions').waitFor();
    await page.screenshot({ path: join(outDir, 'dashboard-explanation.png') });
    await page.keyboard.press('Escape');

    await page.evaluate("document.getElementById('returns-title').scrollIntoView()");
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(outDir, 'dashboard-returns.png') });

    await page.setViewportSize({ width: 400, height: 800 });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(outDir, 'dashboard-phone.png') });
  } finally {
    await browser.close();
  }
  console.log(`wrote dashboard-overview.png, dashboard-explanation.png, dashboard-returns.png, dashboard-phone.png to ${outDir}`);
} finally {
  daemon.kill('SIGTERM');
  await exited;
  rmSync(work, { recursive: true, force: true });
}
