/**
 * Loading a strategy from a file: YAML (validated, with line-numbered errors, then compiled),
 * a plugin module (.js, .mjs, .ts, .mts), or a YAML file whose `plugin` key names a module
 * relative to itself (the YAML's name, params, data and priority then apply to the plugin).
 */
import { dirname, extname, resolve } from 'node:path';
import { ConfigFileError, parseYamlText, readConfigText } from '../../config/index.js';
import type { CompiledStrategy } from '../compiled-strategy.js';
import { compileDataPolicy } from '../compile/compile-data-policy.js';
import { compileStrategy, defaultParams } from '../compile/compile-strategy.js';
import { STRATEGY_RULES } from '../definition/strategy-rules.js';
import { strategyFileSchema, type StrategyDefinition } from '../definition/strategy-schema.js';
import { loadModelFile, type LoadedModel } from '../model/load-model-file.js';
import { loadMarketFile, type LoadedMarketFile } from '../market-file.js';
import { loadPluginFile } from './load-plugin.js';

const PLUGIN_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts']);

/** Parses and checks strategy YAML text; throws ConfigFileError listing every problem. */
export function parseStrategyText(text: string, file: string): StrategyDefinition {
  return parseYamlText(text, file, strategyFileSchema, STRATEGY_RULES);
}

/** Where the model file a strategy's `score.model` names is, relative to the strategy file; undefined without one. */
export function strategyModelPath(definition: StrategyDefinition, strategyFile: string): string | undefined {
  const model = definition.score?.model;
  return model === undefined ? undefined : resolve(dirname(strategyFile), model);
}

/** Where `model:` is written in the strategy text (the first such key), for the error's position. */
function modelKeyPosition(text: string): { line: number; col: number } {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => /^\s*model\s*:/.test(line) || /[{,]\s*model\s*:/.test(line));
  if (index < 0) return { line: 1, col: 1 };
  return { line: index + 1, col: (lines[index] ?? '').indexOf('model') + 1 };
}

/**
 * The model file `score.model` names, loaded and checked. A model that is missing or invalid is a
 * ConfigFileError of the strategy file: its first problem points at `score.model`, the next ones
 * at the model file's own lines.
 */
export async function loadStrategyModel(definition: StrategyDefinition, strategyFile: string, text = ''): Promise<LoadedModel | undefined> {
  const path = strategyModelPath(definition, strategyFile);
  if (path === undefined) return undefined;
  try {
    return await loadModelFile(path);
  } catch (error) {
    if (!(error instanceof ConfigFileError)) throw error;
    const at = { file: strategyFile, ...modelKeyPosition(text), path: 'score.model' };
    throw new ConfigFileError(strategyFile, [{ ...at, message: `cannot use model file ${path}` }, ...error.problems]);
  }
}

/** Where `file:` under `market:` is written in the strategy text, for the error's position. */
function marketFileKeyPosition(text: string): { line: number; col: number } {
  const lines = text.split('\n');
  const market = lines.findIndex((line) => /^\s*market\s*:/.test(line));
  const index = lines.findIndex((line, i) => i >= market && market >= 0 && /(^\s*|[{,]\s*)file\s*:/.test(line));
  if (index < 0) return { line: Math.max(1, market + 1), col: 1 };
  return { line: index + 1, col: (lines[index] ?? '').indexOf('file') + 1 };
}

/**
 * The market file `pricing.market.file` names (relative to the strategy file), loaded and checked;
 * a missing or invalid one is a ConfigFileError of the strategy file pointing at that key.
 */
async function loadStrategyMarket(definition: StrategyDefinition, strategyFile: string, text = ''): Promise<LoadedMarketFile | undefined> {
  const file = definition.pricing?.market?.file;
  if (file === undefined) return undefined;
  const path = resolve(dirname(strategyFile), file);
  try {
    return await loadMarketFile(path);
  } catch (error) {
    if (!(error instanceof ConfigFileError)) throw error;
    const at = { file: strategyFile, ...marketFileKeyPosition(text), path: 'pricing.market.file' };
    throw new ConfigFileError(strategyFile, [{ ...at, message: `cannot use market file ${path}` }, ...error.problems]);
  }
}

/**
 * A YAML strategy's text compiled as if it were the file `file` (its model and market files are
 * read relative to it); `model` instead of the one its score names. For strategies that live in
 * memory: a fitted candidate, a managed version from the store (docs/training.md).
 */
export async function compileStrategyText(text: string, file: string, model?: LoadedModel): Promise<CompiledStrategy> {
  return (await compileDefinition(parseStrategyText(text, file), file, text, {}, model)).strategy;
}

/** A YAML definition compiled with the model (unless `model` is given) and market files it names, read relative to `file`. */
async function compileDefinition(
  definition: StrategyDefinition,
  file: string,
  text: string,
  paramOverrides: Readonly<Record<string, number>>,
  model?: LoadedModel,
): Promise<LoadedStrategy> {
  const loadedModel = model ?? (await loadStrategyModel(definition, file, text));
  const market = await loadStrategyMarket(definition, file, text);
  const strategy = compileStrategy(
    definition,
    { file, text, ...(loadedModel === undefined ? {} : { model: loadedModel }), ...(market === undefined ? {} : { market }) },
    paramOverrides,
  );
  return loadedModel === undefined ? { strategy } : { strategy, model: loadedModel };
}

/** A loaded strategy, with the model file its score names (YAML only). */
export interface LoadedStrategy {
  strategy: CompiledStrategy;
  model?: LoadedModel;
}

/** Loads, checks and compiles a strategy file (YAML or plugin module), with the model file its score names. */
export async function loadStrategyFile(path: string, paramOverrides: Readonly<Record<string, number>> = {}): Promise<CompiledStrategy> {
  return (await loadStrategy(path, paramOverrides)).strategy;
}

/** As loadStrategyFile, also handing back the model file the strategy scores with. */
export async function loadStrategy(path: string, paramOverrides: Readonly<Record<string, number>> = {}): Promise<LoadedStrategy> {
  if (PLUGIN_EXTENSIONS.has(extname(path).toLowerCase())) {
    const strategy = await loadPluginFile(path);
    return { strategy: Object.keys(paramOverrides).length > 0 ? strategy.withParams(paramOverrides) : strategy };
  }
  const text = await readConfigText(path);
  const definition = parseStrategyText(text, path);
  if (definition.plugin === undefined) return compileDefinition(definition, path, text, paramOverrides);

  const strategy = await loadPluginFile(resolve(dirname(path), definition.plugin), {
    name: definition.name,
    version: definition.version,
    description: definition.description,
    paramSpecs: definition.params,
    dataPolicy: compileDataPolicy(definition.data, defaultParams(definition)),
    automateFund: definition.automate_fund,
    ...(definition.priority === undefined ? {} : { priority: definition.priority }),
    hashPrefix: text,
  });
  const withParams = Object.keys(paramOverrides).length > 0 ? strategy.withParams(paramOverrides) : strategy;
  return { strategy: definition.shadow ? asShadow(withParams) : withParams };
}

/** A plugin strategy marked `shadow: true` in its YAML: a challenger, with every params variant too. */
function asShadow(strategy: CompiledStrategy): CompiledStrategy {
  return { ...strategy, shadow: true, withParams: (overrides) => asShadow(strategy.withParams(overrides)) };
}
