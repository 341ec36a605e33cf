/**
 * The dashboard's files, read into memory once when the listener starts: the HTML page, its
 * plain ES modules and stylesheet (./assets, copied beside the compiled code by bin/build-dist.js)
 * and Chart.js's UMD build from node_modules. Only files found here are ever served, so no
 * request path can reach outside the folder, whatever it spells.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Asset {
  body: Buffer;
  contentType: string;
  /** A strong validator of the content, for If-None-Match. */
  etag: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Where the dashboard's files are: beside this module, from src/ and from dist/ alike. */
export const ASSETS_DIR = fileURLToPath(new URL('./assets/', import.meta.url));

/** Chart.js's browser build; the package exports only its ESM and CJS entries, the UMD one sits beside the CJS one. */
export function chartJsPath(): string {
  const entry = createRequire(import.meta.url).resolve('chart.js');
  return join(dirname(entry), 'chart.umd.min.js');
}

function assetOf(file: string, body: Buffer): Asset {
  const contentType = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  return { body, contentType, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** Every servable file of the folder by its URL path below it ("index.html", "dashboard.js", ...). */
export function loadAssets(dir: string = ASSETS_DIR): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  for (const entry of files) {
    const file = join(entry.parentPath, entry.name);
    if (CONTENT_TYPES[extname(file).toLowerCase()] === undefined) continue;
    assets.set(relative(dir, file).split(sep).join('/'), assetOf(file, readFileSync(file)));
  }
  return assets;
}

/** Chart.js as an asset. */
export function loadChartJs(): Asset {
  const file = chartJsPath();
  return assetOf(file, readFileSync(file));
}
