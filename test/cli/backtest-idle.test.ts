/**
 * The backtest's headline names the idle share beside the return and says why the money sat
 * idle: the caps (a cap refused requests the cash could fund) or the market's flow (none did),
 * in the terminal, the HTML report and the JSON, on a real sandbox recording.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

interface IdleJson {
  shareWhileRequests: number;
  share: number;
  cause: 'caps' | 'market' | null;
  capRefusals: { requests: number; amountCents: number };
  text: string;
}

interface Written {
  verdict: string;
  idle: IdleJson[];
  runs: Array<{ summary: { guardRefusals: Record<string, number>; idleShare: number; idleShareWhileRequests: number } }>;
}

const pct = (share: number): string => `${(share * 100).toFixed(1)}%`;
const dollars = (cents: number): string =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

describe('lendbot backtest: the idle share and its cause in the headline', () => {
  let dir: string;
  let data: string;
  const strategy = 'strategies/balanced.yaml';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-backtest-idle-'));
    data = join(dir, 'rec.jsonl');
    const exported = await runCli(['sandbox', 'export', '--seed', '1', '--requests', '400', '--out', data]);
    expect(exported.code).toBe(0);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function backtest(name: string, balance: string, extra: string[]): Promise<{ stdout: string; html: string; written: Written }> {
    const json = join(dir, `${name}.json`);
    const html = join(dir, `${name}.html`);
    const args = [
      'backtest',
      '--data',
      data,
      '--strategy',
      strategy,
      '--balance',
      balance,
      '--draws',
      '1',
      '--no-worlds',
      '--no-sensitivity',
    ];
    const result = await runCli([...args, ...extra, '--json', json, '--html', html]);
    expect(result.stderr).not.toContain('lendbot:');
    expect(result.code).toBe(0);
    return { stdout: result.stdout, html: await readFile(html, 'utf8'), written: JSON.parse(await readFile(json, 'utf8')) as Written };
  }

  it('says the caps held the money back when a cap refused requests the cash could fund', async () => {
    const config = join(dir, 'tight.yaml');
    await writeFile(config, 'risk:\n  max_amount_per_day: 1000\n');
    const { stdout, html, written } = await backtest('caps', '20000', ['--config', config]);
    const idle = written.idle[0];
    const summary = written.runs[0]?.summary;
    if (idle === undefined || summary === undefined) throw new Error('no run');
    // The replay counted each refusal for a cap, and the total of those requests.
    expect(idle.cause).toBe('caps');
    expect(idle.capRefusals.requests).toBe(summary.guardRefusals.max_amount_per_day);
    expect(idle.capRefusals.requests).toBeGreaterThan(0);
    const words =
      `idle ${pct(summary.idleShareWhileRequests)} while requests arrived (${pct(summary.idleShare)} to the last repayment): ` +
      `the caps refused ${idle.capRefusals.requests} requests (${dollars(idle.capRefusals.amountCents)} in all), ` +
      'each of which the free cash could have funded (the caps under risk: in the config)';
    expect(idle.text).toBe(words);
    // Terminal: right under the return; HTML: beside it; the verdict carries the cause too.
    expect(stdout).toMatch(
      new RegExp(`Net annualized return on capital \\(idle cash included\\): [^\\n]+\\n${escape(`I${words.slice(1)}`)}\\n`),
    );
    expect(html).toContain(`<p class="idle" data-idle-cause="caps">I${words.slice(1)}.</p>`);
    expect(written.verdict).toContain(
      `of its money sat idle while requests arrived (${pct(summary.idleShare)} to the last repayment): the caps refused`,
    );
  });

  it("says the market's flow left the money idle when no cap refused a request", async () => {
    // No caps, and more money than the strategy finds requests for in these 400.
    const { stdout, html, written } = await backtest('market', '200000', ['--conditions', 'unlimited']);
    const idle = written.idle[0];
    const summary = written.runs[0]?.summary;
    if (idle === undefined || summary === undefined) throw new Error('no run');
    expect(idle.cause).toBe('market');
    expect(idle.capRefusals).toEqual({ requests: 0, amountCents: 0 });
    const words =
      `idle ${pct(summary.idleShareWhileRequests)} while requests arrived (${pct(summary.idleShare)} to the last repayment): ` +
      'the market offered too few requests this strategy would take for this balance (no cap refused one)';
    expect(idle.text).toBe(words);
    expect(stdout).toContain(`\nI${words.slice(1)}\n`);
    expect(html).toContain(`<p class="idle" data-idle-cause="market">I${words.slice(1)}.</p>`);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
