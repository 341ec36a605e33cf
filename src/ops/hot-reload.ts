/**
 * Hot reload of the strategy files and the config file's `risk:` section while the daemon runs.
 *
 * - fs.watch on the files' directories (editors often replace a file by renaming, which a watch
 *   on the file itself would miss) wakes a check after a short debounce; a poll every few seconds
 *   is the fallback where fs.watch says nothing (network mounts, some container volumes).
 * - A check compares each file's text with the last text seen, so an edit is handled once.
 * - An edit is loaded and validated in full before anything changes. An invalid edit is logged
 *   with its line-numbered problems and the previous version stays active; strategies change
 *   all together, never one file of several.
 * - Strategy plugin modules (.ts/.js) are cached by Node's module loader: their YAML (params,
 *   data, priority) reloads, their code needs a restart.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { ConfigFileError, formatProblem, loadYamlFile } from '../config/index.js';
import { loadStrategyFiles, type CompiledStrategy } from '../engine/index.js';
import type { Logger } from '../log/logger.js';
import { riskLimitsSchema, type RiskLimits } from '../risk/index.js';
import { z } from 'zod';

export interface ActiveConfig {
  strategies: readonly CompiledStrategy[];
  limits: RiskLimits;
}

export interface HotReloadOptions {
  strategyFiles: readonly string[];
  /** The config file whose `risk:` section is watched; none: limits never change. */
  configFile?: string | undefined;
  /**
   * The schema the whole config file must pass before its `risk:` section is taken (the daemon's,
   * so a broken edit anywhere is reported); by default only `risk:` is checked.
   */
  configSchema?: z.ZodType<{ risk: RiskLimits }>;
  initial: ActiveConfig;
  log: Logger;
  /** Applies a validated change (the daemon swaps it in between two requests). */
  onChange?: (next: ActiveConfig) => Promise<void> | void;
  debounceMs?: number;
  pollIntervalMs?: number;
}

export class HotReloader {
  private active: ActiveConfig;
  private readonly seen = new Map<string, string | undefined>();
  private readonly watchers: FSWatcher[] = [];
  private timers: NodeJS.Timeout[] = [];
  private debounce: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private again = false;

  constructor(private readonly options: HotReloadOptions) {
    this.active = options.initial;
  }

  /** The strategies and limits in force now. */
  current(): ActiveConfig {
    return this.active;
  }

  /** Remembers the files as they are now, then watches them. */
  async start(): Promise<void> {
    for (const file of this.files()) this.seen.set(file, await readText(file));
    const byDir = new Map<string, Set<string>>();
    for (const file of this.files()) {
      const dir = dirname(resolve(file));
      byDir.set(dir, (byDir.get(dir) ?? new Set()).add(basename(file)));
    }
    for (const [dir, names] of byDir) {
      try {
        const watcher = watch(dir, { persistent: false }, (_event, name) => {
          if (name === null || names.has(name.toString())) this.schedule();
        });
        watcher.on('error', (error) => this.options.log.warn({ dir, err: error }, 'file watch failed; polling only'));
        this.watchers.push(watcher);
      } catch (error) {
        this.options.log.warn({ dir, err: error }, 'file watch unavailable; polling only');
      }
    }
    const poll = setInterval(() => this.schedule(0), this.options.pollIntervalMs ?? 2000);
    poll.unref();
    this.timers.push(poll);
  }

  stop(): void {
    for (const watcher of this.watchers) watcher.close();
    this.watchers.length = 0;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    if (this.debounce) clearTimeout(this.debounce);
  }

  /** Looks at every file now; resolves when any change found is applied or rejected. */
  check(): Promise<void> {
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.checking = (async () => {
      do {
        this.again = false;
        await this.checkOnce();
      } while (this.again);
    })().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private schedule(delayMs = this.options.debounceMs ?? 250): void {
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.check().catch((error: unknown) => this.options.log.error({ err: error }, 'reload check failed'));
    }, delayMs);
    this.debounce.unref();
  }

  private files(): string[] {
    return [...this.options.strategyFiles, ...(this.options.configFile === undefined ? [] : [this.options.configFile])];
  }

  private async changed(files: readonly string[]): Promise<boolean> {
    let any = false;
    for (const file of files) {
      const text = await readText(file);
      if (text !== this.seen.get(file)) any = true;
      this.seen.set(file, text);
    }
    return any;
  }

  private async checkOnce(): Promise<void> {
    const strategiesChanged = await this.changed(this.options.strategyFiles);
    const configFile = this.options.configFile;
    const limitsChanged = configFile !== undefined && (await this.changed([configFile]));
    if (!strategiesChanged && !limitsChanged) return;

    let next: ActiveConfig = this.active;
    if (strategiesChanged) {
      const strategies = await this.attempt('strategy', () => loadStrategyFiles(this.options.strategyFiles));
      if (strategies !== undefined) next = { ...next, strategies };
    }
    if (limitsChanged) {
      const schema = this.options.configSchema ?? z.looseObject({ risk: riskLimitsSchema.prefault({}) });
      const config = await this.attempt('risk', () => loadYamlFile(configFile, schema));
      if (config !== undefined && JSON.stringify(config.risk) !== JSON.stringify(this.active.limits))
        next = { ...next, limits: config.risk };
    }
    if (next === this.active) return;
    await this.options.onChange?.(next);
    const log = this.options.log;
    if (next.strategies !== this.active.strategies) {
      log.info(
        { strategies: next.strategies.map((s) => ({ name: s.name, version: s.version, contentHash: s.contentHash })) },
        'strategies reloaded',
      );
    }
    if (next.limits !== this.active.limits) log.info({ file: configFile }, 'risk limits reloaded');
    this.active = next;
  }

  /** Runs a load; an invalid file is logged with its line-numbered problems and gives undefined. */
  private async attempt<T>(what: 'strategy' | 'risk', load: () => Promise<T>): Promise<T | undefined> {
    try {
      return await load();
    } catch (error) {
      const problems =
        error instanceof ConfigFileError ? error.problems.map(formatProblem) : [error instanceof Error ? error.message : String(error)];
      this.options.log.error(
        { problems },
        what === 'strategy'
          ? 'strategy edit rejected; the previous strategies stay active'
          : 'risk edit rejected; the previous limits stay active',
      );
      return undefined;
    }
  }
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}
