/**
 * Loading the list of strategies one daemon, hot reload or backtest runs. A strategy's `name`
 * is how decisions, data budgets, purchases and reports tell strategies apart, so two files with
 * one name would mix their figures silently: the second is refused, naming the first.
 */
import { ConfigFileError } from '../../config/index.js';
import type { CompiledStrategy } from '../compiled-strategy.js';
import { loadStrategyFile } from './load-strategy-file.js';

/** Loads every file (in parallel) and refuses two strategies with one name. */
export async function loadStrategyFiles(files: readonly string[]): Promise<CompiledStrategy[]> {
  const strategies = await Promise.all(files.map((file) => loadStrategyFile(file)));
  refuseDuplicateNames(strategies, files);
  return strategies;
}

/** Throws ConfigFileError on the first strategy whose name an earlier file already uses. */
function refuseDuplicateNames(strategies: readonly CompiledStrategy[], files: readonly string[]): void {
  const firstFileOf = new Map<string, string>();
  strategies.forEach((strategy, index) => {
    const file = files[index] ?? strategy.name;
    const earlier = firstFileOf.get(strategy.name);
    if (earlier === undefined) {
      firstFileOf.set(strategy.name, file);
      return;
    }
    throw new ConfigFileError(file, [
      {
        file,
        line: 1,
        col: 1,
        path: 'name',
        message: `strategy name "${strategy.name}" is already the name of ${earlier}; decisions, budgets and reports tell strategies apart by name: rename one`,
      },
    ]);
  });
}
