// The backtest reports of the configured folder (ops.reports_dir), newest first, each opening
// in a tab of its own (they are whole pages with their own charts).
import { getJson } from './api.js';
import { byTestId, fill, h } from './dom.js';
import { realTime } from './format.js';

function size(bytes) {
  return bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} kB`;
}

export async function refreshReports() {
  const answer = await getJson('/api/reports');
  byTestId('reports-folder').textContent = `in ${answer.folder}`;
  fill(
    byTestId('reports-list'),
    answer.reports.map((report) =>
      h(
        'li',
        {},
        h('a', { href: report.url, target: '_blank', rel: 'noopener', dataset: { testid: 'report-link' } }, report.name),
        h('span', { class: 'muted' }, ` ${size(report.sizeBytes)}, written ${realTime(report.modifiedAt)}`),
      ),
    ),
  );
  byTestId('reports-empty').hidden = answer.reports.length > 0;
}
