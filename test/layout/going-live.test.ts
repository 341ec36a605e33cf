/**
 * docs/going-live.md names configuration a new user copies: every YAML example in it is a valid
 * config/lendbot.yaml (read by the daemon's own schema), and every key its risk table names is a
 * key of the `risk:` section. (Its reverse-proxy examples run in test/webhook/reverse-proxy.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { daemonConfigSchema } from '../../src/daemon/daemon-config.js';
import { riskLimitsSchema } from '../../src/risk/index.js';

const guide = readFileSync(fileURLToPath(new URL('../../docs/going-live.md', import.meta.url)), 'utf8');
const yamlBlocks = [...guide.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');

/** The first column of the table in "7. Small caps, live": the keys it names. */
function riskTableKeys(): string[] {
  const section = guide.slice(guide.indexOf('## 7.'), guide.indexOf('## 8.'));
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`(\w+)`/g)].map((match) => match[1] ?? ''));
}

describe('docs/going-live.md', () => {
  it('has YAML examples that the daemon reads as they are (the dry run, the small caps)', () => {
    expect(yamlBlocks.length).toBeGreaterThanOrEqual(2);
    for (const block of yamlBlocks) {
      const result = daemonConfigSchema.safeParse(parse(block));
      expect(result.error?.issues ?? [], block).toEqual([]);
    }
  });

  it("names only keys the risk: section has, and the caps' defaults as the program has them", () => {
    const properties = Object.keys((z.toJSONSchema(riskLimitsSchema, { io: 'input' }) as { properties?: object }).properties ?? {});
    const named = riskTableKeys();
    expect(named.length).toBeGreaterThanOrEqual(10);
    expect(named.filter((key) => !properties.includes(key))).toEqual([]);
    const defaults = riskLimitsSchema.parse({});
    const section = guide.slice(guide.indexOf('## 7.'), guide.indexOf('## 8.'));
    for (const [key, share] of [
      ['max_open_exposure', defaults.maxOpenExposureShare],
      ['max_per_borrower', defaults.maxPerBorrowerShare],
      ['max_amount_per_day', defaults.maxAmountPerDayShare],
    ] as const) {
      expect(section, key).toContain(`| \`${key}\` |`);
      expect(
        section.split('\n').find((line) => line.startsWith(`| \`${key}\``)),
        key,
      ).toMatch(new RegExp(`\\| ${String(share)} of the capital \\|$`));
    }
  });
});
