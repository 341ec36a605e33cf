/**
 * The sandbox's market shapes by name (`--shape NAME`). Adding one: a file with a MarketShape,
 * and a line here.
 */
import { BURDEN_SHAPE } from './burden.js';
import { CLASSIC_SHAPE } from './classic.js';
import { CREDIT_SHAPE } from './credit.js';
import type { MarketShape } from './market-shape.js';
import { SHOPPERS_SHAPE } from './shoppers.js';
import { URGENT_SHAPE } from './urgent.js';
import { VOLATILITY_SHAPE } from './volatility.js';

export type { MarketShape } from './market-shape.js';
export { SCORE_LINKS, shiftedShape, worldShiftLabel, type ScoreLinkName, type WorldShift } from './world-shift.js';

export const MARKET_SHAPES: Readonly<Record<string, MarketShape>> = {
  [CLASSIC_SHAPE.name]: CLASSIC_SHAPE,
  [CREDIT_SHAPE.name]: CREDIT_SHAPE,
  [BURDEN_SHAPE.name]: BURDEN_SHAPE,
  [VOLATILITY_SHAPE.name]: VOLATILITY_SHAPE,
  [SHOPPERS_SHAPE.name]: SHOPPERS_SHAPE,
  [URGENT_SHAPE.name]: URGENT_SHAPE,
};

export const DEFAULT_SHAPE_NAME = CLASSIC_SHAPE.name;

/** The shape called `name`; a RangeError naming the known shapes otherwise. */
export function marketShape(name: string = DEFAULT_SHAPE_NAME): MarketShape {
  const shape = MARKET_SHAPES[name];
  if (!shape) throw new RangeError(`unknown market shape "${name}" (known: ${Object.keys(MARKET_SHAPES).join(', ')})`);
  return shape;
}
