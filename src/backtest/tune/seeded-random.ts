/** mulberry32, so a tune is reproducible: the engine's seeded generator (it seeds exploring prices too). */
export { seededRandom } from '../../engine/market/seeded-normals.js';
