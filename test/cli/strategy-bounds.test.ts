/**
 * Probabilities, shares and rates in a strategy file are bounded: `strategy check` reports a
 * number out of bounds, or a param whose range leaves them, at file:line:col, and the generated
 * JSON Schema carries the same bounds for editors.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { tempDir } from '../store/fixtures.js';
import { runCli } from './run-cli.js';

const STRATEGY = `name: bounded
description: bounds
version: "1"
params:
  floor: { value: 0.7, min: 0.5, max: 0.95 }
score:
  logistic:
    intercept: 2
    terms:
      - { feature: credit_score_low, weight: 0.01, center: 650 }
  min_probability: $floor
pricing:
  target_return: 0.08
  recovery: 0.2
`;

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => cleanup());

function strategyFile(text: string): string {
  const path = join(dir, 'bounded.yaml');
  writeFileSync(path, text);
  return path;
}

describe('bounded strategy fields', () => {
  it('accepts numbers within their bounds', async () => {
    const result = await runCli(['strategy', 'check', strategyFile(STRATEGY)]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
  });

  it('reports min_probability: 1.5 and a share above 1 with file:line:col and the bound', async () => {
    const path = strategyFile(
      STRATEGY.replace('min_probability: $floor', 'min_probability: 1.5').replace('recovery: 0.2', 'recovery: 1.2'),
    );
    const result = await runCli(['strategy', 'check', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        `${path}: 2 problems`,
        `${path}:11:20 score.min_probability: 1.5 is out of bounds (a probability: from 0 to 1)`,
        `${path}:14:13 pricing.recovery: 1.2 is out of bounds (a share: from 0 to 1)`,
        'lendbot: 1 of 1 strategy files have problems',
        '',
      ].join('\n'),
    );
  });

  it('reports a param whose tuning range leaves the bounds of the field that uses it', async () => {
    const path = strategyFile(STRATEGY.replace('max: 0.95', 'max: 1.2'));
    const result = await runCli(['strategy', 'check', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${path}:5:39 params.floor.max: max 1.2 is outside [0, 1], the bounds of score.min_probability, which uses $floor\n`,
    );
  });

  it('puts the bounds in schema/strategy.schema.json, so editors flag them too', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schema/strategy.schema.json', import.meta.url), 'utf8')) as object;
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(parse(STRATEGY))).toBe(true);
    expect(validate(parse(STRATEGY.replace('min_probability: $floor', 'min_probability: 1.5')))).toBe(false);
    expect(validate.errors).toContainEqual(
      expect.objectContaining({ instancePath: '/score/min_probability', keyword: 'maximum', params: { comparison: '<=', limit: 1 } }),
    );
  });
});
