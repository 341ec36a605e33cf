/**
 * Builds the `lendbot` program with every command loaded, for running commands in-process
 * (tests, tools). The `lendbot` binary loads only the command it runs (lazy-program.ts).
 */
import type { Command } from 'commander';
import type { CliIo } from './cli-io.js';
import { COMMAND_TABLE, type RegisterCommand } from './command-table.js';
import { programShell } from './program-shell.js';

const REGISTERS: readonly RegisterCommand[] = await Promise.all(COMMAND_TABLE.map((entry) => entry.load()));

export function buildProgram(io: CliIo): Command {
  const program = programShell(io);
  for (const register of REGISTERS) register(program, io);
  return program;
}
