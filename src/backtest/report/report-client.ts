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
    var x = dates
      ? {
          type: 'linear',
          bounds: 'data',
          ticks: { maxRotation: 0, autoSkip: true, callback: function (v) { return day(v); } },
          afterBuildTicks: function (axis) { axis.ticks = spec.x.ticks.map(function (v) { return { value: v }; }); },
        }
      : { type: 'category', ticks: { autoSkip: true } };
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
