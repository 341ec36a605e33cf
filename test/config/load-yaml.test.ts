import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closestName, ConfigFileError, loadYamlFile, parseYamlText, type CrossFieldRule } from '../../src/config/index.js';

const schema = z.strictObject({
  listen: z.strictObject({ host: z.string(), port: z.number().int().min(1).max(65535) }),
  limits: z.array(z.strictObject({ name: z.string(), cents: z.number().int() })).default([]),
  mode: z.union([z.literal('live'), z.literal('dry-run')]).optional(),
});
type Config = z.infer<typeof schema>;

const uniqueNames: CrossFieldRule<Config> = (config) =>
  config.limits.flatMap((limit, index) =>
    config.limits.findIndex((other) => other.name === limit.name) < index
      ? [{ path: ['limits', index, 'name'], message: `duplicate limit "${limit.name}"` }]
      : [],
  );

function problems(text: string, rules: Array<CrossFieldRule<Config>> = []): string[] {
  try {
    parseYamlText(text, 'lendbot.yaml', schema, rules);
  } catch (error) {
    if (error instanceof ConfigFileError)
      return error.problems.map((problem) => `${problem.line}:${problem.col} ${problem.path}: ${problem.message}`);
    throw error;
  }
  return [];
}

describe('parseYamlText', () => {
  it('returns the validated value with defaults', () => {
    expect(parseYamlText('listen: { host: 127.0.0.1, port: 8080 }\n', 'x.yaml', schema)).toEqual({
      listen: { host: '127.0.0.1', port: 8080 },
      limits: [],
    });
  });

  it('lists every problem at once, in file order, at the offending node', () => {
    expect(
      problems(`listen:
  host: 127.0.0.1
  port: 70000
  hots: x
limits:
  - name: daily
    cents: 12.5
mode: live-ish
`),
    ).toEqual([
      '3:9 listen.port: Too big: expected number to be <=65535',
      '4:3 listen.hots: unknown key "hots"; did you mean "host"?',
      '7:12 limits[0].cents: Invalid input: expected int, received number',
      '8:7 mode: does not match any allowed form: Invalid input: expected "live"; or Invalid input: expected "dry-run"',
    ]);
  });

  it('reports a missing key on its parent', () => {
    expect(problems('listen:\n  host: a\n')).toEqual(['2:3 listen.port: Invalid input: expected number, received undefined']);
  });

  it('runs cross-field rules after validation and locates their problems', () => {
    const text = 'listen: { host: a, port: 1 }\nlimits:\n  - { name: a, cents: 1 }\n  - { name: a, cents: 2 }\n';
    expect(problems(text, [uniqueNames])).toEqual(['4:13 limits[1].name: duplicate limit "a"']);
  });

  it('reports an alias bomb as a problem of the file, not a crash', () => {
    // Nine levels of nine aliases each: 9^9 strings once expanded. The yaml library refuses to
    // build it; the refusal must read like any other config problem.
    const names = 'abcdefghi';
    let text = 'a: &a [x, x, x, x, x, x, x, x, x]\n';
    for (let level = 1; level < names.length; level++) {
      const name = names[level] ?? '';
      text += `${name}: &${name} [${Array(9)
        .fill(`*${names[level - 1] ?? ''}`)
        .join(', ')}]\n`;
    }
    const found = problems(text);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^1:1 : YAML cannot be expanded \(Excessive alias count.*\); use fewer aliases/);
  });

  it('formats the error message as file:line:col path: message lines', () => {
    expect(() => parseYamlText('listen: 3\n', 'cfg/lendbot.yaml', schema)).toThrow(
      'cfg/lendbot.yaml: 1 problem\ncfg/lendbot.yaml:1:9 listen: Invalid input: expected object, received number',
    );
  });
});

describe('loadYamlFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a file from disk', async () => {
    const file = join(dir, 'ok.yaml');
    await writeFile(file, 'listen:\n  host: localhost\n  port: 9000\n');
    await expect(loadYamlFile(file, schema)).resolves.toMatchObject({ listen: { port: 9000 } });
  });

  it('turns a missing file into a ConfigFileError', async () => {
    const file = join(dir, 'missing.yaml');
    await expect(loadYamlFile(file, schema)).rejects.toThrow(`${file}:1:1 file not found`);
  });

  it('names the file beside a missing one that was probably meant (.yml for .yaml)', async () => {
    await writeFile(join(dir, 'balanced.yaml'), 'listen:\n  host: localhost\n  port: 9000\n');
    const typo = join(dir, 'balanced.yml');
    await expect(loadYamlFile(typo, schema)).rejects.toThrow(`${typo}:1:1 file not found; did you mean "${join(dir, 'balanced.yaml')}"?`);
    const far = join(dir, 'nothing-like-it.yaml');
    await expect(loadYamlFile(far, schema)).rejects.toThrow(new RegExp(`${far}:1:1 file not found$`));
  });
});

describe('closestName', () => {
  it('suggests plausible typos only', () => {
    expect(closestName('credit_scor', ['credit_score_low', 'loan_amount'])).toBe('credit_score_low');
    expect(closestName('filtres', ['filters', 'data'])).toBe('filters');
    expect(closestName('zzz', ['filters', 'data'])).toBeUndefined();
  });
});
