#!/usr/bin/env node
// The `lendbot` command. It runs the TypeScript sources through tsx's loader, so a fresh clone
// needs no build step and the command can never run stale compiled code.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
