/**
 * What the retraining loop lays over the strategy files, never writing them: the managed version
 * in force of each strategy (a promoted candidate, or what a rollback restored), and each waiting
 * round's candidate as a challenger in shadow (`<strategy>-retrain-<id>`, docs/strategies.md,
 * "Shadow and split"). Both live in the store, so `lendbot retrain rollback` in another process
 * reaches a running daemon at its next look (`refresh`, on `jobs.retrain`: every minute by default).
 */
import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { compileStrategyText, parseStrategyText, type CompiledStrategy } from '../engine/index.js';
import { strategyModelPath } from '../engine/load/load-strategy-file.js';
import { parseModelText } from '../engine/model/index.js';
import type { Logger } from '../log/logger.js';
import type { RetrainRepository, RetrainRound } from '../store/index.js';
import type { RunningStrategy } from './retrain-round.js';

interface Layer {
  /** Strategy name -> the managed version in force (its text) and its compiled form. */
  versions: Map<string, { versionId: number; text: string; strategy: CompiledStrategy }>;
  /** The waiting candidates: in shadow, or live where risk.split runs one as an arm. */
  shadows: CompiledStrategy[];
}

/**
 * A candidate or managed version compiled as if it were the strategy file `file`; `model`: the
 * retrained model file's JSON, read in place of the one its score.model names.
 */
export async function compileCandidate(text: string, model: string | null, file: string): Promise<CompiledStrategy> {
  if (model === null) return compileStrategyText(text, file);
  const modelPath = strategyModelPath(parseStrategyText(text, file), file) ?? `${file}.model.json`;
  return compileStrategyText(text, file, parseModelText(model, modelPath));
}

/** A candidate's text as a challenger: its own name, `shadow: true` (false: a live split's arm), the rest as fitted. */
function asShadowText(text: string, name: string, shadow = true): string {
  const document = parseDocument(text);
  document.set('name', name);
  document.set('shadow', shadow);
  return document.toString();
}

export class ManagedStrategies {
  private layer: Layer = { versions: new Map(), shadows: [] };
  private signature: string | undefined;
  private memo: { base: readonly CompiledStrategy[]; layer: Layer; result: readonly CompiledStrategy[] } | undefined;

  constructor(
    private readonly repo: RetrainRepository,
    private readonly log: Logger,
    /** risk.split's arms: a candidate named there decides live as its arm (split-evidence.ts). */
    private readonly splitArms: () => readonly string[] = () => [],
  ) {}

  /** The strategies as they run: each file's managed version where one is in force, then the candidates in shadow. */
  over(base: readonly CompiledStrategy[]): readonly CompiledStrategy[] {
    const memo = this.memo;
    // Called for every request: the same arrays give the same answer without a copy.
    if (memo !== undefined && memo.base === base && memo.layer === this.layer) return memo.result;
    const { versions, shadows } = this.layer;
    const result =
      versions.size === 0 && shadows.length === 0
        ? base
        : [...base.map((strategy) => versions.get(strategy.name)?.strategy ?? strategy), ...shadows];
    this.memo = { base, layer: this.layer, result };
    return result;
  }

  /** The strategies as they run, each with its YAML and its file's content hash (what a round fits on). */
  async running(files: readonly CompiledStrategy[]): Promise<RunningStrategy[]> {
    // A candidate running as a split arm is live but not retrained itself.
    const candidates = new Set(this.layer.shadows.map((strategy) => strategy.name));
    const live = this.over(files).filter((strategy) => strategy.shadow !== true && !candidates.has(strategy.name));
    return Promise.all(
      live.map(async (strategy) => ({
        strategy,
        // A file gone since it was loaded reads as empty: its round then fails and says so.
        text: strategy.kind === 'yaml' ? await this.textOf(strategy).catch(() => '') : '',
        fileHash: files.find((file) => file.name === strategy.name)?.contentHash ?? strategy.contentHash,
      })),
    );
  }

  /** The YAML a strategy runs with: its managed version, or its file. */
  async textOf(strategy: CompiledStrategy): Promise<string> {
    return this.layer.versions.get(strategy.name)?.text ?? (await readFile(strategy.file, 'utf8'));
  }

  /**
   * Reads the versions in force and the waiting rounds; when they changed, compiles them and
   * hands the new layer to `swap` (the daemon swaps it between two requests). `base`: the files.
   */
  async refresh(base: readonly CompiledStrategy[], swap: (apply: () => void) => Promise<void>): Promise<boolean> {
    const inForce = this.repo.inForce();
    const waiting = this.repo.waiting();
    const arms = this.splitArms();
    const signature = JSON.stringify([inForce.map((v) => v.id), waiting.map((r) => r.id), base.map((s) => s.contentHash), arms]);
    if (signature === this.signature) return false;
    const next: Layer = { versions: new Map(), shadows: [] };
    for (const version of inForce) {
      const file = base.find((strategy) => strategy.name === version.strategy);
      if (version.text === null || file === undefined) continue;
      if (version.fileHash !== null && version.fileHash !== file.contentHash) {
        // The lender edited the file since: their edit runs, not a version built on the old text.
        this.log.warn(
          { strategy: version.strategy, version: version.id },
          `${version.strategy}'s file changed since retrained version #${version.id} was built on it; the file runs (lendbot retrain history)`,
        );
        continue;
      }
      const compiled = await this.compile(version.text, version.model, file.file, `managed version #${version.id} of ${version.strategy}`);
      if (compiled !== undefined) next.versions.set(version.strategy, { versionId: version.id, text: version.text, strategy: compiled });
    }
    for (const round of waiting) {
      const shadow = await this.shadowOf(round, base, arms);
      if (shadow !== undefined) next.shadows.push(shadow);
    }
    await swap(() => {
      this.layer = next;
    });
    this.signature = signature;
    return true;
  }

  private async shadowOf(
    round: RetrainRound,
    base: readonly CompiledStrategy[],
    arms: readonly string[],
  ): Promise<CompiledStrategy | undefined> {
    const file = base.find((strategy) => strategy.name === round.strategy);
    if (round.candidateText === null || round.shadowName === null || file === undefined) return undefined;
    const splitArm = arms.includes(round.strategy) && arms.includes(round.shadowName);
    return this.compile(
      asShadowText(round.candidateText, round.shadowName, !splitArm),
      round.candidateModel,
      file.file,
      `retraining candidate #${round.id}`,
    );
  }

  private async compile(text: string, model: string | null, file: string, what: string): Promise<CompiledStrategy | undefined> {
    try {
      return await compileCandidate(text, model, file);
    } catch (error) {
      // A version that no longer compiles (a model file moved) leaves the file's strategy running.
      this.log.error({ err: error, file }, `${what} does not load; the strategy file runs instead`);
      return undefined;
    }
  }
}
