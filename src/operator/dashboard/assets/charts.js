// How the dashboard draws with Chart.js (served as /assets/vendor/chart.umd.min.js, the global
// `Chart`): a chart is made on its first data, then its data and options are replaced in place,
// so a refresh neither flickers nor loses an open tooltip.

const charts = new Map();

/** The Chart.js constructor, or a clear error when the vendor script did not load. */
export function chartJs() {
  const ChartJs = globalThis.Chart;
  if (typeof ChartJs !== 'function') throw new Error('Chart.js did not load (/assets/vendor/chart.umd.min.js)');
  return ChartJs;
}

/** Draws `config` on `canvas` under `key`: made once, updated afterwards (remade if the canvas changed). */
export function drawChart(key, canvas, config) {
  const existing = charts.get(key);
  if (existing && existing.canvas === canvas) {
    existing.data = config.data;
    existing.options = config.options;
    existing.update('none');
    return existing;
  }
  existing?.destroy();
  const ChartJs = chartJs();
  const chart = new ChartJs(canvas, config);
  charts.set(key, chart);
  return chart;
}

/** Destroys the chart drawn under `key`, if any (its canvas is gone or about to be). */
export function forgetChart(key) {
  charts.get(key)?.destroy();
  charts.delete(key);
}
