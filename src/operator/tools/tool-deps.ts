/** What every group of tools is registered with: one per MCP session (one caller). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AgentCaller, AgentContext } from '../agent-context.js';
import type { ConfirmationCodes } from '../confirmation.js';

export interface ToolDeps {
  server: McpServer;
  context: AgentContext;
  caller: AgentCaller;
  /** Shared by the sessions of one process, so a code works whichever session redeems it. */
  codes: ConfirmationCodes;
}
