#!/usr/bin/env node
/**
 * `npm run build`: compiles src/ to dist/ from scratch (no file of an older build stays behind),
 * copies the folders tsc does not emit (the dashboard's files, STATIC_FOLDERS) beside the compiled
 * code, and, only when the compiler reported no error, stamps dist/ with the hash of the sources it
 * was built from (bin/source-stamp.js), which is what lets bin/lendbot.js run it.
 *
 *   node bin/build-dist.js             build; exit code 1 on a compile error (dist/ left unstamped)
 *   node bin/build-dist.js --if-stale  build only when dist/ does not match the sources; never
 *                                      fails: without a good build, lendbot runs the sources
 */
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { distState, ROOT, sourceStamp, STAMP_FILE, STATIC_FOLDERS } from './source-stamp.js';

const ifStale = process.argv.includes('--if-stale');

function build() {
  let tsc;
  try {
    tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    process.stderr.write('lendbot build: typescript is not installed (npm install); lendbot runs the sources through tsx\n');
    return 1;
  }
  // The stamp is of the sources before compiling: an edit during the build makes dist/ stale.
  const stamp = sourceStamp();
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
  const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  if (compiled.status !== 0) {
    process.stderr.write('lendbot build: the compiler reported errors; dist/ is not stamped, so lendbot runs the sources through tsx\n');
    return 1;
  }
  // The dashboard's HTML, CSS and browser modules are served as written: tsc does not emit them.
  for (const folder of STATIC_FOLDERS) cpSync(join(ROOT, 'src', folder), join(ROOT, 'dist', folder), { recursive: true });
  writeFileSync(join(ROOT, STAMP_FILE), `${stamp}\n`);
  return 0;
}

if (ifStale) {
  if (distState() !== 'fresh' && distState() !== 'installed') {
    process.stderr.write('lendbot: compiling src/ to dist/ (npm run build) ...\n');
    build();
  }
} else {
  process.exitCode = build();
}
