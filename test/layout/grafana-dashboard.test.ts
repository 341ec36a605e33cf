/**
 * docs/grafana-dashboard.json cannot drift from the metrics: every series its PromQL names exists
 * in createMetrics()'s registry, every label it filters, groups or labels a legend by is one of
 * that series' labels, and every lendbot_ series has a panel.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/ops/metrics.js';

const dashboard = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../docs/grafana-dashboard.json', import.meta.url)), 'utf8'),
) as Dashboard;

interface Target {
  expr?: string;
  legendFormat?: string;
}
interface Panel {
  type: string;
  title?: string;
  datasource?: { uid?: string };
  targets?: Target[];
  panels?: Panel[];
}
interface Dashboard {
  uid: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; query?: unknown; definition?: string }> };
}

/** Labels every scraped series carries (Prometheus adds them), and histograms' bucket label. */
const TARGET_LABELS = ['instance', 'job'];
const HISTOGRAM_SUFFIXES = ['_bucket', '_sum', '_count'];
const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'offset',
  'bool',
  'and',
  'or',
  'unless',
  'inf',
  'nan',
]);

/** Series names and labels from the registry: name → label names. */
function registrySeries(): Map<string, { labels: string[]; histogram: boolean }> {
  const series = new Map<string, { labels: string[]; histogram: boolean }>();
  for (const metric of createMetrics().registry.getMetricsAsArray()) {
    const { name, labelNames = [] } = metric as unknown as { name: string; labelNames?: string[] };
    const histogram = metric.constructor.name === 'Histogram';
    series.set(name, { labels: [...labelNames, ...TARGET_LABELS, ...(histogram ? ['le'] : [])], histogram });
  }
  return series;
}

interface ExprParts {
  /** Series names with the labels their selector matches on. */
  selectors: Array<{ name: string; labels: string[] }>;
  /** Labels of by (...) / without (...) / on (...) clauses. */
  grouping: string[];
}

/** The series and labels a PromQL expression names (Grafana's $variables and strings set aside). */
function exprParts(expr: string): ExprParts {
  let rest = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\$\{?\w+\}?/g, '');
  const selectors: ExprParts['selectors'] = [];
  const grouping: string[] = [];
  // Grafana's label_values(metric, label) in a variable query.
  rest = rest.replace(/label_values\(\s*([a-zA-Z_:][\w:]*)\s*,\s*(\w+)\s*\)/g, (_, name: string, label: string) => {
    selectors.push({ name, labels: [label] });
    return ' ';
  });
  rest = rest.replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g, (_, labels: string) => {
    grouping.push(
      ...labels
        .split(',')
        .map((label) => label.trim())
        .filter(Boolean),
    );
    return ' ';
  });
  rest = rest.replace(/\[[^\]]*\]/g, ' ');
  for (const match of rest.matchAll(/([a-zA-Z_:][\w:]*)?\s*\{([^}]*)\}/g)) {
    const labels = [...(match[2] ?? '').matchAll(/(\w+)\s*(?:=~|!~|!=|=)/g)].map((label) => label[1] ?? '');
    if (match[1] !== undefined) selectors.push({ name: match[1], labels });
  }
  rest = rest.replace(/([a-zA-Z_:][\w:]*)?\s*\{[^}]*\}/g, ' ');
  for (const match of rest.matchAll(/(?<![\w.])([a-zA-Z_:][\w:]*)(\s*\()?/g)) {
    const name = match[1] ?? '';
    if (match[2] !== undefined || KEYWORDS.has(name.toLowerCase())) continue; // a function or a keyword
    selectors.push({ name, labels: [] });
  }
  return { selectors, grouping };
}

function allPanels(panels: Panel[]): Panel[] {
  return panels.flatMap((panel) => [panel, ...allPanels(panel.panels ?? [])]);
}

/** Every query in the dashboard with where it is, for messages. */
function queries(): Array<{ where: string; expr: string; legend: string | undefined }> {
  const found = allPanels(dashboard.panels).flatMap((panel) =>
    (panel.targets ?? []).flatMap((target) =>
      target.expr === undefined ? [] : [{ where: `panel "${panel.title}"`, expr: target.expr, legend: target.legendFormat }],
    ),
  );
  for (const variable of dashboard.templating.list) {
    const query = typeof variable.query === 'string' ? variable.query : (variable.query as { query?: string } | undefined)?.query;
    if (query !== undefined && variable.name !== 'datasource')
      found.push({ where: `variable $${variable.name}`, expr: query, legend: undefined });
  }
  return found;
}

/** What in `expr` does not match the registry. */
function problems(expr: string, series = registrySeries()): string[] {
  const found: string[] = [];
  const { selectors, grouping } = exprParts(expr);
  const known: string[] = [...TARGET_LABELS];
  for (const { name, labels } of selectors) {
    const base = series.has(name)
      ? name
      : HISTOGRAM_SUFFIXES.map((suffix) => name.endsWith(suffix) && name.slice(0, -suffix.length)).find(
          (stem) => stem && series.get(stem)?.histogram,
        );
    const entry = base ? series.get(base) : undefined;
    if (entry === undefined) {
      found.push(`no series ${name}`);
      continue;
    }
    known.push(...entry.labels);
    for (const label of labels) if (!entry.labels.includes(label)) found.push(`${name} has no label ${label}`);
  }
  for (const label of grouping) if (!known.includes(label)) found.push(`no series here has the label ${label}`);
  return found;
}

describe('docs/grafana-dashboard.json', () => {
  it('reads PromQL the way the check needs', () => {
    expect(
      exprParts('sum by (reason) (rate(lendbot_decisions_total{instance=~"$instance", action="skip"}[$__rate_interval])) * 60'),
    ).toEqual({
      selectors: [{ name: 'lendbot_decisions_total', labels: ['instance', 'action'] }],
      grouping: ['reason'],
    });
    expect(exprParts('time() - max(lendbot_last_poll_timestamp_seconds > 0)').selectors).toEqual([
      { name: 'lendbot_last_poll_timestamp_seconds', labels: [] },
    ]);
    expect(exprParts('label_values(lendbot_balance_cents, instance)').selectors).toEqual([
      { name: 'lendbot_balance_cents', labels: ['instance'] },
    ]);
    // The check fails for what drifted: a renamed series, a label it does not have.
    expect(problems('sum(lendbot_balanc_cents)')).toEqual(['no series lendbot_balanc_cents']);
    expect(problems('sum by (risk) (lendbot_exposure_cents{level="1"})')).toEqual([
      'lendbot_exposure_cents has no label level',
      'no series here has the label risk',
    ]);
    expect(problems('histogram_quantile(0.9, sum by (le) (rate(lendbot_webhook_to_offer_seconds_bucket[5m])))')).toEqual([]);
    expect(problems('rate(lendbot_offers_total_bucket[5m])')).toEqual(['no series lendbot_offers_total_bucket']);
  });

  it('names only series and labels that createMetrics() exports', () => {
    const all = queries();
    expect(all.length).toBeGreaterThan(20);
    const wrong = all.flatMap(({ where, expr }) => problems(expr).map((problem) => `${where}: ${problem} in ${expr}`));
    expect(wrong).toEqual([]);
  });

  it('labels legends only by labels the query keeps', () => {
    const wrong = queries().flatMap(({ where, expr, legend }) => {
      const kept = exprParts(expr).grouping;
      return [...(legend ?? '').matchAll(/\{\{\s*(\w+)\s*\}\}/g)]
        .map((match) => match[1] ?? '')
        .filter((label) => !kept.includes(label))
        .map((label) => `${where}: legend {{${label}}} but ${expr}`);
    });
    expect(wrong).toEqual([]);
  });

  it('charts every lendbot_ series (add a panel with a new metric)', () => {
    const named = new Set(
      queries().flatMap(({ expr }) => exprParts(expr).selectors.map(({ name }) => name.replace(/_(bucket|sum|count)$/, ''))),
    );
    const missing = [...registrySeries().keys()].filter((name) => name.startsWith('lendbot_') && !named.has(name));
    expect(missing).toEqual([]);
  });

  it('asks which Prometheus to use on import, and has a stable uid', () => {
    expect(dashboard.uid).toBe('lendbot-overview');
    expect(dashboard.templating.list.map((variable) => variable.name)).toEqual(['datasource', 'instance']);
    const charts = allPanels(dashboard.panels).filter((panel) => panel.type !== 'row');
    expect(charts.filter((panel) => panel.datasource?.uid !== '${datasource}').map((panel) => panel.title)).toEqual([]);
  });
});
