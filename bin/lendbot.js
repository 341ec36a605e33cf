#!/usr/bin/env node
// The `lendbot` command. It runs the compiled JavaScript in dist/ when `npm run build` made it
// from the sources as they are now (or in an image, where dist/ is all there is), and otherwise
// the TypeScript sources through tsx's loader: a fresh clone needs no build step, and a stale
// dist/ never runs (bin/source-stamp.js). Compiled, start-up is several times faster and the
// daemon's memory is smaller: no compiler in the process.
import { distState } from './source-stamp.js';

const state = distState();
if (state === 'fresh' || state === 'installed') {
  await import('../dist/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
