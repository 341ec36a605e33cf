/**
 * Loading a strategy from a file: YAML (validated, with line-numbered errors, then compiled),
 * a plugin module (.js, .mjs, .ts, .mts), or a YAML file whose `plugin` key names a module
 * relative to itself (the YAML's name, params, data and priority then apply to the plugin).
 */
import { dirname, extname, resolve } from 'node:path';
import { parseYamlText, readConfigText } from '../../config/index.js';
import type { CompiledStrategy } from '../compiled-strategy.js';
import { compileDataPolicy } from '../compile/compile-data-policy.js';
import { compileStrategy } from '../compile/compile-strategy.js';
import { STRATEGY_RULES } from '../definition/strategy-rules.js';
import { strategyFileSchema, type StrategyDefinition } from '../definition/strategy-schema.js';
import { loadPluginFile } from './load-plugin.js';

const PLUGIN_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts']);

/** Parses and checks strategy YAML text; throws ConfigFileError listing every problem. */
export function parseStrategyText(text: string, file: string): StrategyDefinition {
  return parseYamlText(text, file, strategyFileSchema, STRATEGY_RULES);
}

/** Loads, checks and compiles a strategy file (YAML or plugin module). */
export async function loadStrategyFile(path: string, paramOverrides: Readonly<Record<string, number>> = {}): Promise<CompiledStrategy> {
  if (PLUGIN_EXTENSIONS.has(extname(path).toLowerCase())) {
    const strategy = await loadPluginFile(path);
    return Object.keys(paramOverrides).length > 0 ? strategy.withParams(paramOverrides) : strategy;
  }
  const text = await readConfigText(path);
  const definition = parseStrategyText(text, path);
  if (definition.plugin === undefined) return compileStrategy(definition, { file: path, text }, paramOverrides);

  const defaults = Object.fromEntries(Object.entries(definition.params).map(([name, spec]) => [name, spec.value]));
  const strategy = await loadPluginFile(resolve(dirname(path), definition.plugin), {
    name: definition.name,
    version: definition.version,
    description: definition.description,
    paramSpecs: definition.params,
    dataPolicy: compileDataPolicy(definition.data, defaults),
    automateFund: definition.automate_fund,
    ...(definition.priority === undefined ? {} : { priority: definition.priority }),
    hashPrefix: text,
  });
  return Object.keys(paramOverrides).length > 0 ? strategy.withParams(paramOverrides) : strategy;
}
