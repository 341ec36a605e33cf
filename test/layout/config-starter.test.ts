/**
 * config/lendbot.yaml is the short starter a new lender copies: the keys they set, nothing they
 * would not (issue 38: the whole 231-line file used to be copied, knobs nobody sets included).
 * config/lendbot.reference.yaml beside it names every key of the configuration. The two load to
 * the same settings (test/daemon/daemon-config.test.ts); here: the starter stays short, sets
 * only values the reference shows, and the reference leaves no key of the schema out.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configJsonSchemaText } from '../../src/daemon/daemon-config-json-schema.js';

const read = (file: string): string => readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8');
const starter = read('config/lendbot.yaml');
const reference = read('config/lendbot.reference.yaml');

interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
}
const schema = JSON.parse(configJsonSchemaText()) as JsonSchema & { $defs?: Record<string, JsonSchema> };

/** The keys an object schema has (through a $ref or the object arm of a union). */
function keysOf(node: JsonSchema | undefined): Record<string, JsonSchema> {
  if (node === undefined) return {};
  if (node.$ref !== undefined) return keysOf(schema.$defs?.[node.$ref.split('/').pop() ?? '']);
  if (node.properties !== undefined) return node.properties;
  for (const arm of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
    const keys = keysOf(arm);
    if (Object.keys(keys).length > 0) return keys;
  }
  return {};
}

/** Every leaf `a.b.c` the YAML value sets, with its value. */
function leaves(value: unknown, path = ''): Array<[string, unknown]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [[path, value]];
  return Object.entries(value).flatMap(([key, inner]) => leaves(inner, path === '' ? key : `${path}.${key}`));
}

function at(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);
}

describe('the starter config and the reference beside it', () => {
  it('keeps the starter short: the keys a new lender sets', () => {
    expect(starter.split('\n').length).toBeLessThanOrEqual(60);
    const set = leaves(parse(starter)).map(([path]) => path);
    expect(set.length).toBeLessThanOrEqual(12);
    expect(set).toEqual(expect.arrayContaining(['dry_run', 'strategies', 'risk.max_open_exposure.share', 'webhook.port', 'ops.port']));
  });

  it('sets in the starter only what the reference shows, with the same values', () => {
    const full = parse(reference) as unknown;
    for (const [path, value] of leaves(parse(starter))) expect(at(full, path), path).toEqual(value);
  });

  it('names every key of the configuration in the reference, two levels deep (commented-out examples count)', () => {
    const named = (key: string): boolean => new RegExp(`(^|[\\s{,#-])${key}:`, 'm').test(reference);
    const missing: string[] = [];
    for (const [top, section] of Object.entries(keysOf(schema))) {
      if (!named(top)) missing.push(top);
      for (const key of Object.keys(keysOf(section))) if (!named(key)) missing.push(`${top}.${key}`);
    }
    expect(Object.keys(keysOf(schema)).length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
