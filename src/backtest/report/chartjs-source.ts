/**
 * Chart.js's UMD build, read from node_modules when a report is written, so the report carries
 * its charting library inline and opens from disk with no network.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let cached: string | undefined;

/** The text of chart.umd.min.js (read once per process). */
export function chartJsSource(): string {
  if (cached === undefined) {
    // The package exports only its ESM and CJS entries; the UMD build sits beside the CJS one.
    const entry = createRequire(import.meta.url).resolve('chart.js');
    cached = readFileSync(join(dirname(entry), 'chart.umd.min.js'), 'utf8');
  }
  return cached;
}

/** Text made safe inside a <script> element: it cannot close it early or open a comment. */
export function scriptSafe(text: string): string {
  return text.replace(/<(\/script|!--)/gi, '<\\$1');
}
