/**
 * Loading a strategy implemented as a JavaScript/TypeScript module. Its exports are checked
 * against the plugin contract; its decisions are checked on every call, because a plugin is
 * code we did not write: an offer outside [0.03, max_interest_rate] becomes a skip.
 */
import { pathToFileURL } from 'node:url';
import { ConfigFileError, dottedPath, readConfigText, type ConfigProblem } from '../../config/index.js';
import type { LoanRequest } from '../../domain/index.js';
import { otherReason, type DecisionReason } from '../../domain/decision-reason.js';
import { mergeParams, type CompiledStrategy, type DataPolicy } from '../compiled-strategy.js';
import { contentHashOf } from '../compile/compile-strategy.js';
import { formatRatio, type Decision, type StrategyIdentity } from '../decision.js';
import type { ParamSpec } from '../definition/strategy-schema.js';
import type { Enrichment } from '../enrichment.js';
import { MIN_OFFER_RATE } from '../../math/index.js';
import { ensureTypeScriptLoader } from './typescript-loader.js';
import { pluginExportsSchema, type PluginDecision, type StrategyPlugin } from './plugin-contract.js';

/** What a YAML file naming the plugin says about it; it wins over the module's own values. */
export interface PluginOverrides {
  name?: string;
  version?: string;
  description?: string;
  paramSpecs?: Record<string, ParamSpec>;
  dataPolicy?: DataPolicy;
  automateFund?: boolean;
  priority?: number;
  /** Text hashed before the module's (the YAML naming it), so changing either changes the hash. */
  hashPrefix?: string;
}

async function importModule(file: string): Promise<Record<string, unknown>> {
  try {
    if (/\.[cm]?tsx?$/.test(file)) await ensureTypeScriptLoader();
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    throw new ConfigFileError(file, [{ file, line: 1, col: 1, path: '', message: `cannot load strategy plugin: ${message}` }]);
  }
}

/** Loads and checks a plugin module; throws ConfigFileError listing every wrong export. */
export async function loadPluginFile(file: string, overrides: PluginOverrides = {}): Promise<CompiledStrategy> {
  const text = await readConfigText(file);
  const module = await importModule(file);
  const exported = module.default !== null && typeof module.default === 'object' ? (module.default as Record<string, unknown>) : module;
  const parsed = pluginExportsSchema.safeParse(exported);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue): ConfigProblem => ({
      file,
      line: 1,
      col: 1,
      path: `export ${dottedPath(issue.path)}`,
      message: issue.message,
    }));
    throw new ConfigFileError(file, problems);
  }
  const plugin = parsed.data;
  const paramSpecs = overrides.paramSpecs ?? plugin.paramSpecs ?? {};
  const identity: StrategyIdentity = {
    name: overrides.name ?? plugin.name,
    version: overrides.version ?? plugin.version,
    contentHash: contentHashOf((overrides.hashPrefix ?? '') + text),
  };
  const dataPolicy: DataPolicy = overrides.dataPolicy ??
    plugin.dataPolicy ?? { monthlyBudgetCents: 0, bankingData: 'never', providers: [] };
  const automateFund = overrides.automateFund ?? plugin.automateFund ?? true;
  const priority = overrides.priority ?? plugin.priority;
  const build = (params: Record<string, number>): CompiledStrategy => ({
    ...identity,
    description: overrides.description ?? plugin.description ?? '',
    file,
    kind: 'plugin',
    params,
    paramSpecs,
    dataPolicy,
    automateFund,
    ...(priority === undefined ? {} : { priority }),
    features: [],
    evaluate: (request, enrichment) => runPlugin(plugin.evaluate, request, enrichment, { identity, params, automateFund }),
    withParams: (changes) => build(mergeParams(params, paramSpecs, changes)),
  });
  const defaults = Object.fromEntries(Object.entries(paramSpecs).map(([name, spec]) => [name, spec.value]));
  return build(defaults);
}

function runPlugin(
  evaluate: StrategyPlugin['evaluate'],
  request: LoanRequest,
  enrichment: Enrichment,
  context: { identity: StrategyIdentity; params: Record<string, number>; automateFund: boolean },
): Decision {
  const answer: PluginDecision = evaluate(request, enrichment, context.params);
  const decision: Decision = {
    action: answer.action,
    automateFund: context.automateFund,
    // A plugin's reasons are its own text: kept as it wrote them, as `other` (never read as lendbot's own).
    reasons: Array.isArray(answer.reasons) ? answer.reasons.map((text) => otherReason(String(text))) : [],
    contributions: answer.contributions ?? [],
    features: answer.features ?? {},
    strategy: context.identity,
    params: context.params,
  };
  if (answer.probability !== undefined) decision.probability = answer.probability;
  if (answer.expectedReturn !== undefined) decision.expectedReturn = answer.expectedReturn;
  if (answer.action === 'needs_data') {
    if (!answer.needs || answer.needs.length === 0) return refuse(decision, { code: 'plugin_no_needs' });
    decision.needs = answer.needs;
  } else if (answer.action === 'offer') {
    const rate = answer.rate;
    const max = request.max_interest_rate;
    if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < MIN_OFFER_RATE || rate > max) {
      return refuse(decision, { code: 'plugin_rate_outside', rate: String(rate), min: formatRatio(MIN_OFFER_RATE), max: formatRatio(max) });
    }
    decision.rate = rate;
  } else if (answer.action !== 'skip') {
    return refuse(decision, { code: 'plugin_bad_action', action: String(JSON.stringify(answer.action)) });
  }
  return decision;
}

function refuse(decision: Decision, reason: DecisionReason): Decision {
  const { rate: _rate, needs: _needs, ...rest } = decision;
  return { ...rest, action: 'skip', reasons: [...decision.reasons, reason] };
}
