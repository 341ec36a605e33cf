/**
 * What the agent connector's tools work with, and the one builder of it (buildAgentContext): the
 * daemon's operator listener (attach-operator.ts) and `lendbot mcp` (src/cli/commands/mcp) both
 * call it with their parts: the same client, store, guard inputs and offer placer the daemon
 * trades with, so an agent's offer goes the daemon's way.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Clock } from '../clock/clock.js';
import type { CompiledStrategy, DataSource, SpendLedger } from '../engine/index.js';
import type { Logger } from '../log/logger.js';
import type { Protections } from '../ops/protections/index.js';
import type { RiskLimits } from '../risk/index.js';
import type { Cents, LoanRequest, PlaceOutcome } from '../domain/index.js';
import type { MarketplaceApi } from '../service/index.js';
import type { Store } from '../store/index.js';
import type { ConfirmationCodes } from './confirmation.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { approvalSettings, type ApprovalSettings } from './allowance.js';

export interface AgentContext {
  client: MarketplaceApi;
  store: Store;
  /** The market's clock (simulated in the sandbox): decisions, offers and purchases are stamped with it. */
  clock: Clock;
  /** Real time, for confirmation codes: a person's two minutes are two real minutes, even in the sandbox. */
  realClock: Clock;
  log: Logger;
  mode: 'live' | 'sandbox';
  dryRun: boolean;
  strategies: () => readonly CompiledStrategy[];
  limits: () => RiskLimits;
  /** The strategy files in use (undefined when the strategies were compiled in process). */
  strategyFiles: () => readonly string[] | undefined;
  /** The effective configuration, as loaded (secrets are removed before it is shown). */
  config: unknown;
  balance: { current(): Promise<Cents>; refresh(): Promise<Cents> };
  /**
   * The decide step's two seams (src/engine/decide-step.ts): paid data comes from `data` and its
   * spend goes to `spend` (the purchases table).
   */
  data: DataSource<false>;
  spend: SpendLedger;
  /** The daemon's offer path: intent row committed before the POST, never sent twice. */
  placer: {
    place(
      request: LoanRequest,
      rate: number,
      automateFund: boolean,
      paper?: undefined,
      onIntent?: (offerId: number) => void,
    ): Promise<PlaceOutcome>;
  };
  /** Runs `job` between two of the pipeline's requests (the guard then sees every reservation). */
  exclusive<T>(job: () => Promise<T>): Promise<T>;
  protections: Pick<Protections, 'activePause' | 'resume' | 'pauseByOperator'>;
  /** Each token's allowance and how long a proposal waits (ops: section; docs/agent-connector.md, "Proposals"). */
  approvals: ApprovalSettings;
  /** The sandbox's hold on a request while its proposal waits (src/proposals/request-holds.ts); absent live. */
  requestHolds?: RequestHolds | undefined;
  /** The wings' tools, registered on every session's server after the connector's own (src/daemon/wing-surfaces.ts, wingAgent). */
  tools: readonly AgentTools[];
  /** What place_offer does beyond the caller's allowance: a proposal a person approves (src/proposals/); absent, it refuses. */
  beyondAllowance?: BeyondAllowanceAsk | undefined;
}

/** What an agent asks to offer. */
export interface OfferAsk {
  request: LoanRequest;
  rate: number;
  automateFund: boolean;
}

/** place_offer's answer to an offer beyond the caller's allowance (`why`), given the offer's `preview` facts. */
type BeyondAllowanceAsk = (
  context: AgentContext,
  caller: AgentCaller,
  ask: OfferAsk,
  why: string,
  preview: Record<string, unknown>,
) => Promise<CallToolResult>;

/**
 * Holding a loan request while an agent's proposal on it waits for a person: only the sandbox can
 * (src/cli/commands/run/sandbox-request-holds.ts; src/proposals/request-holds.ts uses it).
 */
export interface RequestHolds {
  /** The borrower waits for an answer for `forRealMs` of real time (the market converts to its clock). */
  hold(loanRequestId: number, forRealMs: number): Promise<void>;
  /** The borrower decides now (the proposal was decided). */
  release(loanRequestId: number): Promise<void>;
}

/** What the wings add to an agent context: their tools, place_offer's way beyond the allowance, the sandbox's holds. */
export type AgentWings = Pick<AgentContext, 'tools' | 'beyondAllowance' | 'requestHolds'>;

/** What every group of tools is registered with: one per MCP session (one caller). */
export interface ToolDeps {
  server: McpServer;
  context: AgentContext;
  caller: AgentCaller;
  /** Shared by the sessions of one process, so a code works whichever session redeems it. */
  codes: ConfirmationCodes;
}

/** A group of tools a wing adds to the agent connector. */
type AgentTools = (deps: ToolDeps) => void;

/** Who is calling: the name of the token they presented ("agent:NAME" in the decisions). */
export interface AgentCaller {
  tokenName: string;
}

/**
 * The parts an agent context is built from: the daemon's (src/daemon/daemon-parts.ts, DaemonParts)
 * or those `lendbot mcp` builds with the daemon's own classes (src/cli/commands/mcp/stdio-context.ts).
 */
export interface AgentParts {
  store: Store;
  /** The agent's logger is its child (component "agent"). */
  log: Logger;
  dryRun: boolean;
  clocks: { market: Clock; real: Clock };
  marketplace: { client: MarketplaceApi; mode: 'live' | 'sandbox' };
  /** `files`: the strategy files in use; undefined when the strategies were compiled in process. */
  active: Pick<AgentContext, 'strategies' | 'limits'> & { files: readonly string[] | undefined };
  trading: Pick<AgentContext, 'balance' | 'data' | 'spend' | 'placer'>;
  instruments: Pick<AgentContext, 'protections'>;
  /** The effective configuration; its `ops:` section holds the tokens' allowances. */
  config: { ops: Parameters<typeof approvalSettings>[0] };
  /** Whose queue the agent's offers wait in, between two of the pipeline's requests. */
  pipeline: { exclusive<T>(job: () => Promise<T>): Promise<T> };
}

/** The agent connector's context from the parts it acts through, with what the wings add. */
export function buildAgentContext(parts: AgentParts, wings: AgentWings): AgentContext {
  const { pipeline, active } = parts;
  return {
    client: parts.marketplace.client,
    store: parts.store,
    clock: parts.clocks.market,
    realClock: parts.clocks.real,
    log: parts.log.child({ component: 'agent' }),
    mode: parts.marketplace.mode,
    dryRun: parts.dryRun,
    strategies: active.strategies,
    limits: active.limits,
    strategyFiles: () => active.files,
    config: parts.config,
    ...parts.trading,
    exclusive: (job) => pipeline.exclusive(job),
    protections: parts.instruments.protections,
    // `lendbot mcp --name` finds its allowance among ops.tokens as the listener's tokens do.
    approvals: approvalSettings(parts.config.ops),
    ...wings,
  };
}
