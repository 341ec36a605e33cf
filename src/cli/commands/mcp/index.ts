/**
 * `lendbot mcp`: the agent connector over stdio, for an agent on this machine that starts lendbot
 * itself (a desktop client's "command" server). The same tools as /mcp on the operator listener;
 * stdout carries the protocol and nothing else, so every log line goes to stderr.
 */
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { systemClock } from '../../../clock/clock.js';
import { RUN_ENV_HELP } from '../../../daemon/daemon-config.js';
import { createLogger } from '../../../log/logger.js';
import { ConfirmationCodes } from '../../../operator/confirmation.js';
import { createAgentServer } from '../../../operator/mcp-server.js';
import { SERVICE_ENV_HELP } from '../../../service/index.js';
import type { CliIo } from '../../cli-io.js';
import { envHelp } from '../../env-help.js';
import { daemonConfigWithFlags, repeated, type DaemonConfigFlags } from '../../daemon-config-flags.js';
import { DEFAULT_CONFIG_FILE } from '../../default-config-file.js';
import { buildStdioContext } from './stdio-context.js';

interface McpOptions extends DaemonConfigFlags {
  name: string;
}

/** What `lendbot mcp` reads of `lendbot run`'s variables (no listener, no poll, no token: stdio is local). */
const STDIO_ENV = new Set(['LENDBOT_DB', 'LENDBOT_DRY_RUN', 'LENDBOT_LOG_LEVEL']);

const HELP_AFTER = `
The agent's offers pass the risk guard of the config's risk: section and are recorded as
decisions of "agent:NAME" in the database, beside the daemon's (which may be running). Paid
scores, resuming, and offers within the allowance of the ops.tokens entry named NAME need
confirmation; any other offer waits as a proposal until a person approves it (lendbot approve
ID, or the running daemon's dashboard), and the running daemon places it
(docs/agent-connector.md). For the sandbox, use the
/mcp endpoint of \`lendbot run --sandbox\` instead: this command talks to LENDBOT_BASE_URL.

Examples (an MCP client starts it; run by hand it waits for JSON-RPC on stdin):
  lendbot mcp
  lendbot mcp --config /etc/lendbot.yaml --name claude-desktop
  lendbot mcp --dry-run          # offers are decided and recorded, never sent
`;

export function registerMcpCommand(program: Command, io: CliIo): void {
  program
    .command('mcp')
    .description('serve the agent connector (MCP) over stdio: the /mcp tools for a local agent')
    .option('--config <file>', `configuration file (default ${DEFAULT_CONFIG_FILE} when it exists)`)
    .option('--db <path>', 'SQLite file (overrides LENDBOT_DB and the config)')
    .option('--strategy <file>', 'strategy file; repeat for several, in priority order (overrides the config)', repeated)
    .option('--dry-run', 'record offers as the daemon does in a dry run, never POST them')
    .option('--name <name>', 'the agent\'s name in the decisions it records ("agent:NAME")', 'stdio')
    .addHelpText(
      'after',
      `${envHelp(
        'Environment (the marketplace credentials are required)',
        SERVICE_ENV_HELP,
        RUN_ENV_HELP.filter(([name]) => STDIO_ENV.has(name)),
      )}${HELP_AFTER}`,
    )
    .action(async (options: McpOptions) => {
      const { config } = await daemonConfigWithFlags(options, io.env);
      // stdout is the protocol's: logs go to stderr, as JSON lines.
      const log = createLogger({
        level: config.log_level,
        destination: { write: (line: string) => void io.stderr.write(line) },
        pretty: false,
      });
      const parts = await buildStdioContext(config, io.env, log);
      const server = createAgentServer(parts.context, { tokenName: options.name }, new ConfirmationCodes(systemClock));
      const closed = new Promise<void>((resolve) => {
        server.server.onclose = () => resolve();
      });
      await server.connect(new StdioServerTransport(process.stdin, io.stdout as Writable));
      log.info({ agent: `agent:${options.name}`, db: config.db, dryRun: config.dry_run }, 'MCP agent connector on stdio');
      // The client ends the session by closing our stdin (or by a signal).
      const stop = () => void server.close();
      process.stdin.once('end', stop);
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      await closed;
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      await parts.close();
      log.info('MCP agent connector stopped');
    });
}
