/**
 * What the agent connector's tools work with. The daemon (src/daemon/daemon.ts) and `lendbot mcp`
 * (src/cli/commands/mcp) each build one from their own parts: the same client, store, guard
 * inputs and offer placer the daemon trades with, so an agent's offer goes the daemon's way.
 */
import type { Clock } from '../clock/clock.js';
import type { CompiledStrategy, DataSource, SpendLedger } from '../engine/index.js';
import type { Logger } from '../log/logger.js';
import type { Protections } from '../ops/protections/index.js';
import type { RiskLimits } from '../risk/index.js';
import type { Cents, LoanRequest, PlaceOutcome } from '../domain/index.js';
import type { MarketplaceApi } from '../service/index.js';
import type { Store } from '../store/index.js';
import type { ApprovalSettings } from './proposals/allowance.js';

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
  placer: { place(request: LoanRequest, rate: number, automateFund: boolean): Promise<PlaceOutcome> };
  /** Runs `job` between two of the pipeline's requests (the guard then sees every reservation). */
  exclusive<T>(job: () => Promise<T>): Promise<T>;
  protections: Pick<Protections, 'activePause' | 'resume' | 'pauseByOperator'>;
  /** Each token's allowance and how long a proposal waits (ops: section; docs/agent-connector.md, "Proposals"). */
  approvals: ApprovalSettings;
}

/** Who is calling: the name of the token they presented ("agent:NAME" in the decisions). */
export interface AgentCaller {
  tokenName: string;
}
