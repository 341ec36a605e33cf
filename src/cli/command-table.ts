/**
 * Every lendbot command, in the order `--help` lists them. Each command lives in its own file
 * under commands/ and exports a `register` function that adds itself to the program.
 */
import type { Command } from 'commander';
import type { CliIo } from './cli-io.js';
import { registerApiCommand } from './commands/api/index.js';
import { registerBacktestCommand } from './commands/backtest/index.js';
import { registerDecisionsCommand } from './commands/decisions/index.js';
import { registerRecordCommand } from './commands/record/index.js';
import { registerResumeCommand } from './commands/resume/index.js';
import { registerRunCommand } from './commands/run/index.js';
import { registerStrategyCommand } from './commands/strategy/index.js';
import { registerSandboxCommand } from './commands/sandbox/index.js';
import { registerStatusCommand } from './commands/status/index.js';
import { registerTrainCommand } from './commands/train/index.js';
import { registerTuneCommand } from './commands/tune/index.js';

export type RegisterCommand = (program: Command, io: CliIo) => void;

export const COMMAND_TABLE: readonly RegisterCommand[] = [
  registerRunCommand,
  registerStatusCommand,
  registerResumeCommand,
  registerDecisionsCommand,
  registerRecordCommand,
  registerApiCommand,
  registerStrategyCommand,
  registerSandboxCommand,
  registerBacktestCommand,
  registerTuneCommand,
  registerTrainCommand,
];
