import { describe, expect, it } from 'vitest';
import { applyEnv, daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { ManualClock } from '../../src/clock/clock.js';
import { CONFIRMATION_TTL_MS, ConfirmationCodes } from '../../src/operator/confirmation.js';
import { tokensFromEnv } from '../../src/operator/operator-tokens.js';
import { ConfigurationError } from '../../src/domain/index.js';

describe('operator tokens', () => {
  const config = {
    tokens: [
      { name: 'claude', env: 'LENDBOT_TOKEN_CLAUDE' },
      { name: 'gone', env: 'LENDBOT_TOKEN_GONE' },
    ],
  };

  it('know LENDBOT_OPERATOR_TOKEN and the named tokens whose variable is set, by name', () => {
    const tokens = tokensFromEnv(config, { LENDBOT_OPERATOR_TOKEN: 'op-secret', LENDBOT_TOKEN_CLAUDE: ' claude-secret ' });
    expect(tokens.names).toEqual(['operator', 'claude']);
    expect(tokens.inactive).toEqual(['gone']);
    expect(tokens.authenticate('Bearer op-secret')).toBe('operator');
    expect(tokens.authenticate('bearer claude-secret')).toBe('claude');
  });

  it('let nobody in with a missing, wrong, prefixed or differently formed token', () => {
    const tokens = tokensFromEnv(config, { LENDBOT_OPERATOR_TOKEN: 'op-secret' });
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      'op-secret',
      'Basic op-secret',
      'Bearer op-secre',
      'Bearer op-secretx',
      'Bearer op-secret extra',
    ]) {
      expect(tokens.authenticate(header), String(header)).toBeUndefined();
    }
  });

  it('are none when no variable is set (a removed token lets nobody in)', () => {
    const tokens = tokensFromEnv(config, { LENDBOT_OPERATOR_TOKEN: '  ' });
    expect(tokens.size).toBe(0);
    expect(tokens.authenticate('Bearer ')).toBeUndefined();
  });

  it('refuse reserved or malformed names in the config, and take the port from LENDBOT_OPS_PORT', () => {
    expect(daemonConfigSchema.safeParse({ ops: { tokens: [{ name: 'operator', env: 'X' }] } }).success).toBe(false);
    expect(daemonConfigSchema.safeParse({ ops: { tokens: [{ name: 'Claude Desktop', env: 'X' }] } }).success).toBe(false);
    expect(daemonConfigSchema.safeParse({ ops: { tokens: [{ name: 'claude', env: 'lower' }] } }).success).toBe(false);
    const defaults = daemonConfigSchema.parse({});
    expect(defaults.ops).toEqual({
      host: '127.0.0.1',
      port: 8081,
      tokens: [],
      proposal_expiry_minutes: 30,
      open_on_loopback: true,
      mcp_sessions_per_token: 8,
      reports_dir: 'reports',
      trusted_proxies: [],
    });
    expect(applyEnv(defaults, { LENDBOT_OPS_PORT: '9091' }).ops.port).toBe(9091);
    expect(() => applyEnv(defaults, { LENDBOT_OPS_PORT: 'x' })).toThrow(
      new ConfigurationError('LENDBOT_OPS_PORT must be a port number (got "x")'),
    );
  });
});

describe('confirmation codes', () => {
  const args = { loan_request_id: 7, rate: 0.2, automate_fund: false };

  it('confirm the same tool, arguments (in any key order) and token, once', () => {
    const codes = new ConfirmationCodes(new ManualClock());
    const { code } = codes.issue('place_offer', args, 'claude');
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect(
      codes.redeem(
        code.toLowerCase(),
        'place_offer',
        { automate_fund: false, rate: 0.2, loan_request_id: 7, confirmation_code: code },
        'claude',
      ),
    ).toBe('ok');
    expect(codes.redeem(code, 'place_offer', args, 'claude')).toBe('unknown');
  });

  it('refuse other arguments, another tool or another token, and burn the code', () => {
    const codes = new ConfirmationCodes(new ManualClock());
    for (const [tool, called, token] of [
      ['place_offer', { ...args, rate: 0.21 }, 'claude'],
      ['place_offer', { ...args, automate_fund: true }, 'claude'],
      ['resume_offers', args, 'claude'],
      ['place_offer', args, 'operator'],
    ] as const) {
      const { code } = codes.issue('place_offer', args, 'claude');
      expect(codes.redeem(code, tool, called, token)).toBe('mismatch');
      expect(codes.redeem(code, 'place_offer', args, 'claude')).toBe('unknown');
    }
  });

  it('expire after two minutes of the real clock', () => {
    const clock = new ManualClock();
    const codes = new ConfirmationCodes(clock);
    const early = codes.issue('place_offer', args, 'claude');
    const late = codes.issue('place_offer', args, 'claude');
    clock.advance(CONFIRMATION_TTL_MS - 1);
    expect(codes.redeem(early.code, 'place_offer', args, 'claude')).toBe('ok');
    clock.advance(1);
    expect(codes.redeem(late.code, 'place_offer', args, 'claude')).toBe('expired');
  });
});
