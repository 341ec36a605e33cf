import { describe, expect, it } from 'vitest';
import { backtestHtml, rateHistogram } from '../../src/backtest/report/html-report.js';
import { runBacktest } from '../../src/backtest/run-backtest.js';
import { syntheticRecording } from './recording-fixtures.js';
import { flatStrategy } from './strategy-fixtures.js';

describe('the HTML report', () => {
  const lines = syntheticRecording(200, 7, (low, random) => (low < 620 && random() < 0.5 ? 0.4 : 1));
  const scored = lines.map((line, i) => ({
    ...line,
    scores: { provider_b: { p2p_score: { date: '2026-01-01', score: (i * 37) % 100, score_band: ['poor', 'average', 'good', 'excellent'][Math.floor(((i * 37) % 100) / 25)] ?? 'poor', loan_request_id: String(line.loan_request.id) } } },
  }));
  const result = runBacktest(scored, [flatStrategy()], { startingBalanceCents: 5_000_000 });
  const html = backtestHtml([result], 'synthetic.jsonl');

  it('is one self-contained page: no scripts, no external files', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|src="http|href="http/);
  });

  it('draws every chart with data', () => {
    const chart = (id: string): string => {
      const match = new RegExp(`<svg[^>]*data-chart="${id}"[\\s\\S]*?</svg>`).exec(html);
      expect(match, id).not.toBeNull();
      return match?.[0] ?? '';
    };
    const net = chart('net-return');
    expect(net).toMatch(/<path class="series" data-series="flat" d="M[\d.]+,[\d.]+(L[\d.]+,[\d.]+){10,}"/);
    const capital = chart('capital');
    expect(capital.match(/<path class="series"/g)).toHaveLength(2);
    const bands = chart('default-by-band');
    expect(bands).toMatch(/<rect class="bar" data-label="poor"/);
    expect(bands).toMatch(/data-value="0\.\d+"/);
    const rates = chart('offered-rates');
    expect(rates).toMatch(/<rect class="bar" data-label="0.12" data-value="\d+"[^>]* height="[1-9]/);
  });

  it('names each strategy’s content hash and params so the run can be reproduced', () => {
    expect(html).toContain(result.strategies[0]?.contentHash ?? 'missing');
    expect(html).toContain('min_credit_score');
  });

  it('buckets offered rates by 0.02', () => {
    expect(rateHistogram([0.03, 0.035, 0.07, 0.12])).toEqual([
      { label: '0.02', value: 2 },
      { label: '0.04', value: 0 },
      { label: '0.06', value: 1 },
      { label: '0.08', value: 0 },
      { label: '0.10', value: 0 },
      { label: '0.12', value: 1 },
    ]);
  });
});
