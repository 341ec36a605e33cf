/**
 * The backtest reports of `ops.reports_dir`: `GET /api/reports` lists its `.html` files (newest
 * first, the folder itself only: no subfolders), `GET /reports/:name` serves one. A name is
 * served only when it is exactly one of the listed files: no separator, no dot-dot, no hidden
 * file, no symbolic link out of the folder, whatever the encoding of the path.
 */
import { createReadStream } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import type { OperatorApp } from '../operator-listener.js';
import { fail, type ApiDeps } from './api-deps.js';
import type { ReportEntry, ReportsAnswer } from './api-types.js';

const REPORT_NAME = /^[A-Za-z0-9][A-Za-z0-9._ -]{0,200}\.html$/;

/** Whether `name` may be served: a plain file name of a report, nothing else. */
function isReportName(name: string): boolean {
  return REPORT_NAME.test(name) && basename(name) === name && !name.includes('..');
}

async function listReports(folder: string): Promise<ReportEntry[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries: ReportEntry[] = [];
  for (const name of names) {
    if (!isReportName(name)) continue;
    const stats = await lstat(join(folder, name)).catch(() => undefined);
    if (stats === undefined || !stats.isFile()) continue;
    entries.push({ name, sizeBytes: stats.size, modifiedAt: stats.mtime.toISOString(), url: `/reports/${encodeURIComponent(name)}` });
  }
  return entries.sort((a, b) => b.modifiedAt.localeCompare(a.modifiedAt) || a.name.localeCompare(b.name));
}

/** GET /api/reports, under the API's prefix. */
export function registerReportListRoute(api: OperatorApp, deps: ApiDeps): void {
  const folder = resolve(deps.reportsDir);
  api.get('/reports', async (_request, reply) => {
    const answer: ReportsAnswer = { folder: deps.reportsDir, reports: await listReports(folder) };
    return reply.header('cache-control', 'no-store').send(answer);
  });
}

/** GET /reports/:name, at the listener's root (a report's own links stay relative to it). */
export function registerReportFileRoute(app: OperatorApp, deps: ApiDeps): void {
  const folder = resolve(deps.reportsDir);
  app.get<{ Params: { name: string } }>('/reports/:name', async (request, reply) => {
    // Fastify has decoded the parameter: "..%2f" arrives as "../" and is refused here.
    const { name } = request.params;
    if (!isReportName(name)) return fail(reply, 404, 'no such report');
    const path = join(folder, name);
    const real = await realpath(path).catch(() => undefined);
    const realFolder = await realpath(folder).catch(() => folder);
    if (real === undefined || !real.startsWith(realFolder + sep)) return fail(reply, 404, 'no such report');
    const stats = await lstat(real).catch(() => undefined);
    if (stats === undefined || !stats.isFile()) return fail(reply, 404, 'no such report');
    return (
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        // A report is our own file, but it is served beside the API: it may not be framed elsewhere.
        .header('x-frame-options', 'SAMEORIGIN')
        .header('x-content-type-options', 'nosniff')
        // Its inline scripts draw the charts; nothing in it may call the API or load anything else.
        .header(
          'content-security-policy',
          "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'",
        )
        .send(createReadStream(real))
    );
  });
}
