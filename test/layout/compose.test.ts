/**
 * compose.yaml at the repository root: it parses, runs the image built here with the database
 * in a volume, publishes the webhook port and the operator port on the host's loopback only,
 * takes its secrets from .env (ignored by git), and the environment it sets makes the daemon
 * listen where the ports are published (read through the daemon's own config code).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applyEnv, daemonConfigSchema } from '../../src/daemon/daemon-config.js';

const root = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const text = readFileSync(root('compose.yaml'), 'utf8');

interface Service {
  build?: unknown;
  env_file?: string | string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test?: string[] };
  stop_grace_period?: string;
}
const compose = parse(text) as { services?: Record<string, Service>; volumes?: Record<string, unknown> };
const lendbot = compose.services?.lendbot;

/** "127.0.0.1:8081:8081" → { host: '127.0.0.1', published: 8081, target: 8081 }. */
function port(mapping: string): { host: string | undefined; published: number; target: number } {
  const parts = mapping.split(':');
  const target = Number(parts.at(-1));
  const published = Number(parts.at(-2));
  return { host: parts.length === 3 ? parts[0] : undefined, published, target };
}

describe('compose.yaml', () => {
  it('has the lendbot service built from the Dockerfile, with the data volume and a healthcheck', () => {
    expect(lendbot).toBeDefined();
    expect(lendbot?.build).toBe('.');
    expect(lendbot?.volumes).toContain('lendbot-data:/data');
    expect(compose.volumes).toHaveProperty('lendbot-data');
    expect(lendbot?.environment?.LENDBOT_DB).toBe('/data/lendbot.db');
    expect(lendbot?.stop_grace_period).toBe('15s');
    expect(lendbot?.healthcheck?.test?.join(' ')).toContain('http://127.0.0.1:8080/healthz');
  });

  it('publishes the webhook port, and the operator port on 127.0.0.1 only', () => {
    const ports = (lendbot?.ports ?? []).map(port);
    expect(ports).toContainEqual({ host: undefined, published: 8080, target: 8080 });
    const operator = ports.filter((mapping) => mapping.target === 8081);
    expect(operator).toEqual([{ host: '127.0.0.1', published: 8081, target: 8081 }]);
  });

  it('makes the daemon listen where compose publishes (webhook 8080, operator 0.0.0.0:8081 inside)', () => {
    const config = applyEnv(daemonConfigSchema.parse({}), lendbot?.environment ?? {});
    expect(config.webhook.port).toBe(8080);
    expect(config.ops.port).toBe(8081);
    // 127.0.0.1 inside a container cannot be published at all.
    expect(config.ops.host).toBe('0.0.0.0');
    expect(config.db).toBe('/data/lendbot.db');
  });

  it('takes its secrets from .env, which git ignores, and holds none itself', () => {
    expect([lendbot?.env_file].flat()).toEqual(['.env']);
    const gitignore = readFileSync(root('.gitignore'), 'utf8').split('\n').map((line) => line.trim());
    expect(gitignore).toContain('.env');
    for (const [name, value] of Object.entries(lendbot?.environment ?? {})) {
      if (/KEY|SECRET|TOKEN|PASSWORD|NOTIFY_URL/.test(name)) expect(value, name).toMatch(/^\$\{\w+(:-)?\}$/);
    }
    // Nowhere in the file, comments included, does a secret-looking variable get a value.
    const assigned = text.split('\n').filter((line) => /LENDBOT_\w*(KEY|SECRET|TOKEN|PASSWORD|NOTIFY_URL)\w*\s*[=:]\s*[^\s$#]/.test(line));
    expect(assigned).toEqual([]);
  });
});
