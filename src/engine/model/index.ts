// Trained models' public face: the model file format, loading it, the encoding scoring and
// training share, and feature values computed as a strategy computes them (docs/training.md).
export { MODEL_FORMAT, MODEL_VERSION, type ModelFile, type ModelFeature, type MarketSection } from './model-file.js';
export { Z_CLIP, numericInput, transformed, standardised, levelKey, featureLogOdds } from './model-encoding.js';
export { parseModelText } from './load-model-file.js';
export { FeatureComputer } from './model-features.js';
