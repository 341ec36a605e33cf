/**
 * The `ops:` section's approval keys, read from a real YAML file: a token's allowance in cents,
 * none by default; two tokens with one name (or one variable) are a configuration error naming
 * the line; the proposals' expiry and the public address of the dashboard.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { daemonConfigSchema, loadDaemonConfig } from '../../src/daemon/daemon-config.js';
import { approvalSettings } from '../../src/operator/allowance.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lendbot-ops-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function load(yaml: string) {
  const file = join(dir, 'lendbot.yaml');
  writeFileSync(file, yaml);
  return loadDaemonConfig(file, {});
}

async function problem(yaml: string): Promise<string> {
  try {
    await load(yaml);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the file was accepted');
}

describe('ops: approvals', () => {
  it("reads a token's allowance in cents, and gives none by default", async () => {
    const config = await load(
      [
        'ops:',
        '  public_url: https://lendbot.example.org/',
        '  proposal_expiry_minutes: 45',
        '  tokens:',
        '    - { name: claude, env: LENDBOT_TOKEN_CLAUDE, allowance: { max_per_offer: 250, max_per_day: "600.50", risk_levels: [1, 0, 1] } }',
        '    - { name: research, env: LENDBOT_TOKEN_RESEARCH }',
        '',
      ].join('\n'),
    );
    expect(config.ops.tokens[0]).toEqual({
      name: 'claude',
      env: 'LENDBOT_TOKEN_CLAUDE',
      allowance: { maxPerOfferCents: 25_000, maxPerDayCents: 60_050, riskLevels: [0, 1] },
    });
    const settings = approvalSettings(config.ops);
    expect(settings.allowanceOf('claude')).toEqual({ maxPerOfferCents: 25_000, maxPerDayCents: 60_050, riskLevels: [0, 1] });
    expect(settings.allowanceOf('research')).toBeUndefined();
    expect(settings.allowanceOf('operator')).toBeUndefined();
    expect(settings.proposalTtlMs).toBe(45 * 60_000);
    expect(config.ops.public_url).toBe('https://lendbot.example.org/');

    const defaults = daemonConfigSchema.parse({}).ops;
    expect(defaults.proposal_expiry_minutes).toBe(30);
    expect(defaults.public_url).toBeUndefined();
  });

  it('refuses two tokens with one name, or one variable, naming the line', async () => {
    const twice = await problem(
      ['ops:', '  tokens:', '    - { name: claude, env: LENDBOT_TOKEN_A }', '    - { name: claude, env: LENDBOT_TOKEN_B }', ''].join('\n'),
    );
    expect(twice).toContain(':4:');
    expect(twice).toContain('ops.tokens[1].name: claude is already the name of tokens[0]; each token needs its own name');
    const shared = await problem(
      ['ops:', '  tokens:', '    - { name: a, env: LENDBOT_TOKEN_A }', '    - { name: b, env: LENDBOT_TOKEN_A }', ''].join('\n'),
    );
    expect(shared).toContain('ops.tokens[1].env: LENDBOT_TOKEN_A is already the env of tokens[0]; each token needs its own env');
  });

  it('refuses an allowance that is incomplete, negative or on no risk level', async () => {
    const entry = (allowance: string) =>
      ['ops:', '  tokens:', `    - { name: a, env: LENDBOT_TOKEN_A, allowance: ${allowance} }`, ''].join('\n');
    expect(await problem(entry('{ max_per_offer: 100, risk_levels: [0] }'))).toContain(
      'ops.tokens[0].allowance.max_per_day: required: a USD amount, e.g. 100',
    );
    expect(await problem(entry('{ max_per_offer: -1, max_per_day: 100, risk_levels: [0] }'))).toContain(
      'ops.tokens[0].allowance.max_per_offer: ',
    );
    expect(await problem(entry('{ max_per_offer: 1, max_per_day: 100, risk_levels: [] }'))).toContain('name at least one risk level');
    expect(await problem(entry('{ max_per_offer: 1, max_per_day: 100, risk_levels: [0], per_week: 5 }'))).toContain('per_week');
  });
});
