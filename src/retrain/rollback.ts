/**
 * `lendbot retrain rollback`: puts back the version a strategy ran before the one in force (or
 * the version `--to` names), as a new row, so the history keeps every step. The strategy file
 * itself is never touched: rolling back past the first promotion runs the file as written.
 */
import type { RetrainRepository, StrategyVersion } from '../store/index.js';

/** Why a rollback cannot be done, in words for the lender. */
export class RollbackRefusal extends Error {
  override readonly name = 'RollbackRefusal';
}

export interface RollbackResult {
  strategy: string;
  /** The new row in force. */
  version: StrategyVersion;
  /** What it replaced. */
  replaced: StrategyVersion;
}

/** The one strategy with managed versions, or the one named; throws RollbackRefusal when it is not clear. */
function strategyOf(repo: RetrainRepository, named: string | undefined): StrategyVersion {
  const inForce = repo.inForce();
  const found = named === undefined ? inForce : inForce.filter((version) => version.strategy === named);
  if (found.length === 1 && found[0] !== undefined) return found[0];
  if (found.length === 0)
    throw new RollbackRefusal(
      named === undefined
        ? 'no strategy has a retrained version: nothing to roll back'
        : `${named} has no retrained version: nothing to roll back`,
    );
  throw new RollbackRefusal(
    `several strategies have retrained versions (${found.map((v) => v.strategy).join(', ')}): name one with --strategy`,
  );
}

export function rollback(repo: RetrainRepository, options: { strategy?: string; to?: number }, atMs: number): RollbackResult {
  return repo.transaction(() => {
    let current: StrategyVersion;
    let target: StrategyVersion | undefined;
    if (options.to !== undefined) {
      target = repo.version(options.to);
      if (target === undefined) throw new RollbackRefusal(`no version #${options.to} (lendbot retrain history lists them)`);
      if (options.strategy !== undefined && target.strategy !== options.strategy)
        throw new RollbackRefusal(`version #${options.to} is one of ${target.strategy}, not ${options.strategy}`);
      current = strategyOf(repo, target.strategy);
      if (current.id === target.id) throw new RollbackRefusal(`version #${target.id} of ${target.strategy} is already in force`);
    } else {
      current = strategyOf(repo, options.strategy);
      if (current.text === null) throw new RollbackRefusal(`${current.strategy} already runs its file as written: nothing to roll back`);
      target = current.parentId === null ? undefined : repo.version(current.parentId);
    }
    const id = repo.addVersion(
      {
        strategy: current.strategy,
        kind: 'rollback',
        roundId: null,
        text: target?.text ?? null,
        model: target?.model ?? null,
        fileHash: target?.fileHash ?? null,
        parentId: target?.parentId ?? null,
        restoredId: target?.id ?? null,
      },
      atMs,
    );
    const version = repo.version(id);
    if (version === undefined) throw new Error(`version #${id} vanished (a bug)`);
    return { strategy: current.strategy, version, replaced: current };
  });
}
