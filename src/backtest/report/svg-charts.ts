/**
 * Hand-written inline SVG charts for the HTML report: no script, no external file, so the report
 * opens offline and prints. Two kinds: lines over time and labelled bars.
 */
const WIDTH = 720;
const HEIGHT = 260;
const PAD = { left: 70, right: 16, top: 16, bottom: 40 };

export interface LineSeries {
  name: string;
  color: string;
  /** x: ms since the epoch, y: the value. */
  points: ReadonlyArray<readonly [number, number]>;
}

export interface Bar {
  label: string;
  value: number;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const fixed = (n: number): string => (Math.round(n * 10) / 10).toString();

function extent(values: readonly number[], includeZero: boolean): [number, number] {
  let low = includeZero ? 0 : Number.POSITIVE_INFINITY;
  let high = includeZero ? 0 : Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (v < low) low = v;
    if (v > high) high = v;
  }
  if (!Number.isFinite(low) || !Number.isFinite(high)) return [0, 1];
  return low === high ? [low - 1, high + 1] : [low, high];
}

function frame(id: string, title: string, body: string, legend: string): string {
  return (
    `<figure class="chart"><figcaption>${escapeHtml(title)}</figcaption>` +
    `<svg xmlns="http://www.w3.org/2000/svg" data-chart="${id}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escapeHtml(title)}">` +
    `<rect class="plot" x="${PAD.left}" y="${PAD.top}" width="${WIDTH - PAD.left - PAD.right}" height="${HEIGHT - PAD.top - PAD.bottom}" fill="#fafafa" stroke="#ccc"/>` +
    body +
    `</svg>${legend}</figure>`
  );
}

function yAxis(low: number, high: number, y: (v: number) => number, format: (v: number) => string): string {
  const ticks = [low, (low + high) / 2, high];
  return ticks
    .map((t) => `<text x="${PAD.left - 6}" y="${fixed(y(t) + 4)}" text-anchor="end" font-size="11">${escapeHtml(format(t))}</text>`)
    .join('');
}

/** Lines over time; `format` labels the y axis. */
export function lineChart(id: string, title: string, series: readonly LineSeries[], format: (v: number) => string): string {
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const [x0, x1] = extent(xs, false);
  const [y0, y1] = extent(ys, true);
  const x = (v: number): number => PAD.left + ((v - x0) / (x1 - x0)) * (WIDTH - PAD.left - PAD.right);
  const y = (v: number): number => HEIGHT - PAD.bottom - ((v - y0) / (y1 - y0)) * (HEIGHT - PAD.top - PAD.bottom);
  const paths = series
    .filter((s) => s.points.length > 0)
    .map((s) => {
      const d = s.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${fixed(x(p[0]))},${fixed(y(p[1]))}`).join('');
      return `<path class="series" data-series="${escapeHtml(s.name)}" d="${d}" fill="none" stroke="${s.color}" stroke-width="2"/>`;
    })
    .join('');
  const zero = `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${fixed(y(0))}" y2="${fixed(y(0))}" stroke="#999" stroke-dasharray="4 3"/>`;
  const dates = [x0, x1]
    .map((t, i) => `<text x="${fixed(x(t))}" y="${HEIGHT - PAD.bottom + 16}" text-anchor="${i === 0 ? 'start' : 'end'}" font-size="11">${new Date(t).toISOString().slice(0, 10)}</text>`)
    .join('');
  const legend = `<p class="legend">${series.map((s) => `<span style="color:${s.color}">■</span> ${escapeHtml(s.name)}`).join(' &nbsp; ')}</p>`;
  return frame(id, title, zero + paths + yAxis(y0, y1, y, format) + dates, legend);
}

/** Labelled vertical bars; `format` labels values. */
export function barChart(id: string, title: string, bars: readonly Bar[], format: (v: number) => string, color = '#3b6ea5'): string {
  const [, high] = extent(bars.map((b) => b.value), true);
  const inner = WIDTH - PAD.left - PAD.right;
  const slot = bars.length === 0 ? inner : inner / bars.length;
  const y = (v: number): number => HEIGHT - PAD.bottom - (v / high) * (HEIGHT - PAD.top - PAD.bottom);
  const body = bars
    .map((bar, i) => {
      const left = PAD.left + i * slot + slot * 0.15;
      const top = y(bar.value);
      const label = `<text x="${fixed(left + slot * 0.35)}" y="${HEIGHT - PAD.bottom + 16}" text-anchor="middle" font-size="11">${escapeHtml(bar.label)}</text>`;
      return (
        `<rect class="bar" data-label="${escapeHtml(bar.label)}" data-value="${bar.value}" x="${fixed(left)}" y="${fixed(top)}" width="${fixed(slot * 0.7)}" height="${fixed(HEIGHT - PAD.bottom - top)}" fill="${color}"><title>${escapeHtml(`${bar.label}: ${format(bar.value)}`)}</title></rect>` +
        label
      );
    })
    .join('');
  return frame(id, title, body + yAxis(0, high, y, format), '');
}
