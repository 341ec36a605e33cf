// Loading configuration and strategy files: YAML with positions, zod, cross-field rules.
export { ConfigFileError, dottedPath, formatProblem, type ConfigProblem } from './config-file-error.js';
export { loadYamlFile, parseYamlText, readConfigText, type CrossFieldRule, type RuleProblem } from './load-yaml.js';
export { closestName, didYouMean } from './closest-name.js';
