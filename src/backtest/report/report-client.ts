/**
 * The report page's script, as text: it reads the JSON data block and draws each chart spec
 * (report-charts.ts) with Chart.js, which the page inlines before it. Plain ES2017 so any current
 * browser runs it from disk. When done it sets body[data-charts-drawn] to the number drawn.
 */
export const REPORT_CLIENT_SCRIPT = `(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var COLORS = ['#3b6ea5', '#d1495b', '#2e933c', '#edae49', '#6c4f9c', '#00798c', '#8c564b', '#7f7f7f'];
  var money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 2 });
  var cents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  function format(unit, value, exact) {
    if (unit === 'cents') return (exact ? cents : money).format(value / 100);
    if (unit === 'fraction') return (value * 100).toFixed(1).replace(/\\.0$/, '') + '%';
    return value.toLocaleString('en-US');
  }
  function day(ms) { return new Date(ms).toISOString().slice(0, 10); }
  var MONTH = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
  function monthStart(ms) { return new Date(ms).getUTCDate() === 1; }
  // Ticks on month starts read as months ("Jan 2026"), others as days.
  function dateLabel(ticks) {
    return ticks.every(monthStart) ? function (ms) { return MONTH.format(new Date(ms)); } : day;
  }
  var GAP_PX = 16;
  /**
   * Keeps every k-th of the spec's date ticks, k as small as lets each label clear the next by
   * GAP_PX at the axis's width: the dates are uneven (months differ), so Chart.js's autoSkip,
   * which assumes even spacing, let neighbours run together.
   */
  function fittingTicks(axis, ticks, label) {
    var span = axis.max - axis.min;
    if (ticks.length < 2 || !(span > 0) || !(axis.width > 0)) return ticks;
    var ctx = axis.ctx;
    ctx.save();
    ctx.font = Chart.helpers.toFont(axis.options.ticks.font).string;
    var widths = ticks.map(function (v) { return ctx.measureText(label(v)).width; });
    ctx.restore();
    var px = function (v) { return ((v - axis.min) / span) * axis.width; };
    for (var k = 1; k < ticks.length; k += 1) {
      var fits = true;
      for (var i = k; i < ticks.length && fits; i += k) {
        fits = px(ticks[i]) - px(ticks[i - k]) >= (widths[i] + widths[i - k]) / 2 + GAP_PX;
      }
      if (fits) return ticks.filter(function (_, j) { return j % k === 0; });
    }
    return ticks.slice(0, 1);
  }
  var drawn = 0;
  data.charts.forEach(function (spec) {
    var canvas = document.getElementById('chart-' + spec.id);
    if (spec.empty || !canvas) return;
    var dates = spec.x.dates;
    var datasets = spec.datasets.map(function (set, i) {
      var color = COLORS[i % COLORS.length];
      return {
        label: set.label,
        data: dates ? set.data.map(function (p) { return { x: p[0], y: p[1] }; }) : set.data,
        borderColor: color,
        backgroundColor: color,
        borderWidth: spec.kind === 'line' ? 2 : 0,
        pointRadius: 0,
      };
    });
    var label = dates ? dateLabel(spec.x.ticks) : null;
    var x = dates
      ? {
          type: 'linear',
          bounds: 'data',
          ticks: { maxRotation: 0, autoSkip: false, callback: function (v) { return label(v); } },
          afterBuildTicks: function (axis) {
            axis.ticks = fittingTicks(axis, spec.x.ticks, label).map(function (v) { return { value: v }; });
          },
        }
      : { type: 'category', ticks: { maxRotation: 0, autoSkip: true, autoSkipPadding: GAP_PX } };
    x.title = { display: true, text: spec.x.title };
    new Chart(canvas, {
      type: spec.kind,
      data: dates ? { datasets: datasets } : { labels: spec.x.categories, datasets: datasets },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: dates ? 'nearest' : 'index', axis: 'x', intersect: false },
        scales: {
          x: x,
          y: {
            beginAtZero: spec.kind === 'bar',
            title: { display: true, text: spec.y.title },
            ticks: { precision: spec.y.unit === 'count' ? 0 : undefined, callback: function (v) { return format(spec.y.unit, v, false); } },
          },
        },
        plugins: {
          legend: { position: 'top' },
          tooltip: {
            callbacks: {
              title: function (items) { return items.length === 0 ? '' : dates ? day(items[0].parsed.x) : items[0].label; },
              label: function (item) { return item.dataset.label + ': ' + format(spec.y.unit, item.parsed.y, true); },
            },
          },
        },
      },
    });
    drawn += 1;
  });
  document.body.setAttribute('data-charts-drawn', String(drawn));
})();
`;
