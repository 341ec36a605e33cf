/**
 * Every lendbot command, in the order `--help` lists them. Each command lives in its own file
 * under commands/ and exports a `register` function that adds itself to the program.
 *
 * The modules are loaded lazily: a command pulls in the daemon, the store, the backtester or the
 * sandbox, and `lendbot --help` (or `lendbot status`) should not pay for all of them. The name,
 * summary and term here are what `lendbot --help` lists without loading a module; they must be
 * the module's own (test/cli/startup-lazy-help.test.ts compares them).
 */
import type { Command } from 'commander';
import type { CliIo } from './cli-io.js';

export type RegisterCommand = (program: Command, io: CliIo) => void;

export interface CommandEntry {
  name: string;
  /** The command's `.description()`, as the program's help lists it. */
  summary: string;
  /** Whether the command has options of its own (the help lists it as `NAME [options]`). */
  hasOptions: boolean;
  /** Its arguments as the help lists them after the options (`[id]`, `<id>`), if it takes any. */
  operands?: string;
  load(): Promise<RegisterCommand>;
}

export const COMMAND_TABLE: readonly CommandEntry[] = [
  {
    name: 'run',
    summary: 'run the daemon: hear loan requests, decide, guard, offer, record',
    hasOptions: true,
    load: async () => (await import('./commands/run/index.js')).registerRunCommand,
  },
  {
    name: 'status',
    summary: 'balance, reserved and free cash, exposure, offers today against the caps, loans, data spend, last poll, inbox, kill switch',
    hasOptions: true,
    load: async () => (await import('./commands/status/index.js')).registerStatusCommand,
  },
  {
    name: 'doctor',
    summary: 'check everything live trading needs, one line each with the fix: keys, clock, balance, listeners, database, strategies',
    hasOptions: true,
    load: async () => (await import('./commands/doctor/index.js')).registerDoctorCommand,
  },
  {
    name: 'resume',
    summary: 'lift a protection that paused new offers, and print what it lifted',
    hasOptions: true,
    load: async () => (await import('./commands/resume/index.js')).registerResumeCommand,
  },
  {
    name: 'approve',
    summary: "approve an agent's offer proposal (the running daemon places it), or list those waiting",
    hasOptions: true,
    operands: '[id]',
    load: async () => (await import('./commands/approve/index.js')).registerApproveCommand,
  },
  {
    name: 'reject',
    summary: "reject an agent's offer proposal: it is never placed",
    hasOptions: true,
    operands: '<id>',
    load: async () => (await import('./commands/approve/index.js')).registerRejectCommand,
  },
  {
    name: 'decisions',
    summary: 'list the decisions the daemon recorded: a table for people, JSON lines with --json',
    hasOptions: true,
    load: async () => (await import('./commands/decisions/index.js')).registerDecisionsCommand,
  },
  {
    name: 'ledger',
    summary: 'what the loans earned, per loan and month: interest, principal, fees, write-offs (CSV for tax season)',
    hasOptions: false,
    load: async () => (await import('./commands/ledger/index.js')).registerLedgerCommand,
  },
  {
    name: 'mcp',
    summary: 'serve the agent connector (MCP) over stdio: the /mcp tools for a local agent',
    hasOptions: true,
    load: async () => (await import('./commands/mcp/index.js')).registerMcpCommand,
  },
  {
    name: 'record',
    summary: 'recordings of what the daemon saw, for backtests',
    hasOptions: false,
    load: async () => (await import('./commands/record/index.js')).registerRecordCommand,
  },
  {
    name: 'api',
    summary: 'call the marketplace directly: JSON on stdout, errors on stderr',
    hasOptions: false,
    load: async () => (await import('./commands/api/index.js')).registerApiCommand,
  },
  {
    name: 'webhook',
    summary: 'check the webhook path end to end: send a signed test event, see what the daemon did with it',
    hasOptions: false,
    load: async () => (await import('./commands/webhook/index.js')).registerWebhookCommand,
  },
  {
    name: 'shadow',
    summary: 'challenger strategies in shadow: what they would have offered against the live ones',
    hasOptions: false,
    load: async () => (await import('./commands/shadow/index.js')).registerShadowCommand,
  },
  {
    name: 'strategy',
    summary: 'work with strategy files: check them, list features, explain decisions',
    hasOptions: false,
    load: async () => (await import('./commands/strategy/index.js')).registerStrategyCommand,
  },
  {
    name: 'sandbox',
    summary: 'run the simulated marketplace locally (default: serve), or export recordings with known outcomes',
    hasOptions: false,
    load: async () => (await import('./commands/sandbox/index.js')).registerSandboxCommand,
  },
  {
    name: 'backtest',
    summary: 'replay recorded loan requests through strategies and report what they would have earned',
    hasOptions: true,
    load: async () => (await import('./commands/backtest/index.js')).registerBacktestCommand,
  },
  {
    name: 'drift',
    summary: 'backtest against live: what the backtest and the paper book expected, month by month, beside what happened',
    hasOptions: true,
    load: async () => (await import('./commands/drift/index.js')).registerDriftCommand,
  },
  {
    name: 'tune',
    summary: 'search a strategy’s params on a recording; keep the best only if it beats the current values held out',
    hasOptions: true,
    load: async () => (await import('./commands/tune/index.js')).registerTuneCommand,
  },
  {
    name: 'retrain',
    summary: 'retraining while live: run a round by hand, list the rounds and versions, roll back',
    hasOptions: false,
    load: async () => (await import('./commands/retrain/index.js')).registerRetrainCommand,
  },
  {
    name: 'train',
    summary: "fit from a recording: a default model, a strategy's calibration or the market's response",
    hasOptions: false,
    load: async () => (await import('./commands/train/index.js')).registerTrainCommand,
  },
];
