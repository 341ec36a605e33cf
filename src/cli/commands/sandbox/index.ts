/** `lendbot sandbox`: the simulated marketplace: serve it, or export recordings from it. */
import type { Command } from 'commander';
import type { CliIo } from '../../cli-io.js';
import { registerExport } from './export.js';
import { registerServe } from './serve.js';

export function registerSandboxCommand(program: Command, io: CliIo): void {
  const sandbox = program
    .command('sandbox')
    .description('run the simulated marketplace locally (default: serve), or export recordings with known outcomes');
  registerServe(sandbox, io);
  registerExport(sandbox, io);
}
