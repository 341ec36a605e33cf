/**
 * The header of config/lendbot.yaml (the starter) and of config/lendbot.reference.yaml says which
 * environment variables override the file: that list is the one the daemon's config code reads
 * (applyEnv), checked by setting each variable of `lendbot run --help` and seeing whether the
 * configuration changes. The header used to leave out
 * LENDBOT_OPS_HOST and LENDBOT_OPS_PORT, and said lendbot ran the sandbox without LENDBOT_BASE_URL,
 * which it never does (test/cli/main.test.ts: it exits 1 naming the variable).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RUN_ENV_HELP, applyEnv, daemonConfigSchema } from '../../src/daemon/daemon-config.js';

/** The starter (what lendbot reads) and the full reference beside it: each header says the same. */
const FILES = ['config/lendbot.yaml', 'config/lendbot.reference.yaml'];

function read(file: string): string {
  return readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8');
}

/** The comment lines before the first key. */
function headerOf(text: string): string {
  return text.slice(0, text.search(/^\w/m));
}

function listedIn(header: string): string[] {
  return (
    /environment overrides this file\s*#?\s*\(([^)]*)\)/
      .exec(header.replace(/\n#/g, ' '))?.[1]
      ?.split(/[\s,]+/)
      .filter(Boolean) ?? []
  );
}

/** Values one of which each variable accepts; the variable overrides the file when the config changes. */
const SAMPLES = ['data/other.db', 'true', 'debug', '9123', '::1', '*/5 * * * *'];

function overridesTheFile(name: string): boolean {
  const defaults = daemonConfigSchema.parse({});
  return SAMPLES.some((sample) => {
    try {
      return JSON.stringify(applyEnv(defaults, { [name]: sample })) !== JSON.stringify(defaults);
    } catch {
      return false; // not a value this variable takes
    }
  });
}

describe.each(FILES)("%s's header", (file) => {
  const text = read(file);
  const header = headerOf(text);

  it('lists exactly the variables that override the file (and LENDBOT_NOTIFY_URL, which overrides notifications.url)', () => {
    const overriding = RUN_ENV_HELP.map(([name]) => name).filter(overridesTheFile);
    expect(overriding.length).toBeGreaterThan(5);
    expect([...listedIn(header)].sort()).toEqual([...overriding, 'LENDBOT_NOTIFY_URL'].sort());
  });

  it('says lendbot run needs the marketplace variables and runs the sandbox only when asked', () => {
    const flat = header.replace(/\n#\s*/g, ' ');
    expect(flat).toContain('never falls back to a simulation');
    expect(flat).toContain('lendbot run --sandbox');
    expect(flat).not.toMatch(/no LENDBOT_BASE_URL, lendbot runs/i);
    expect(text).not.toMatch(/used only when LENDBOT_BASE_URL is not set/);
  });

  it('names the other file: the starter where the rest lives, the reference what lendbot reads', () => {
    const other = FILES.find((name) => name !== file) ?? '';
    expect(header.replace(/\n#\s*/g, ' ')).toContain(other);
  });
});
