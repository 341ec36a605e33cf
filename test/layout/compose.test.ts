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
    const gitignore = readFileSync(root('.gitignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    expect(gitignore).toContain('.env');
    for (const [name, value] of Object.entries(lendbot?.environment ?? {})) {
      if (/KEY|SECRET|TOKEN|PASSWORD|NOTIFY_URL/.test(name)) expect(value, name).toMatch(/^\$\{\w+(:-)?\}$/);
    }
    // Nowhere in the file, comments included, does a secret-looking variable get a value.
    const assigned = text.split('\n').filter((line) => /LENDBOT_\w*(KEY|SECRET|TOKEN|PASSWORD|NOTIFY_URL)\w*\s*[=:]\s*[^\s$#]/.test(line));
    expect(assigned).toEqual([]);
  });
});

/**
 * The `docker run` commands docs/operations.md shows (the README sends readers there): each publishes the webhook port
 * and the operator port (on the host's loopback only), makes the operator listener listen where it
 * is published, and passes the operator token, without which it would not start off loopback.
 * The README's once published 8080 only, so the dashboard and /metrics it mentioned were unreachable.
 */
interface DockerRun {
  ports: string[];
  env: Map<string, string | undefined>;
  image: string | undefined;
}

/** Every `docker run` in a Markdown file, its continuation lines joined, read flag by flag. */
function dockerRuns(markdown: string): DockerRun[] {
  const joined = markdown.replace(/\\\n\s*/g, ' ');
  return joined
    .split('\n')
    .filter((line) => /^\s*docker run /.test(line))
    .map((line) => {
      const words = line.trim().replace(/#.*$/, '').split(/\s+/).slice(2);
      const run: DockerRun = { ports: [], env: new Map(), image: undefined };
      for (let index = 0; index < words.length; index += 1) {
        const word = words[index] ?? '';
        if (word === '-p') run.ports.push(words[(index += 1)] ?? '');
        else if (word === '-e') {
          const [name = '', ...value] = (words[(index += 1)] ?? '').split('=');
          run.env.set(name, value.length === 0 ? undefined : value.join('='));
        } else if (['-v', '--name', '--restart', '--stop-timeout'].includes(word)) index += 1;
        else if (!word.startsWith('-')) {
          run.image = word;
          break;
        }
      }
      return run;
    });
}

const dockerfile = readFileSync(root('Dockerfile'), 'utf8');

describe.each(['docs/operations.md'])('the docker run in %s', (file) => {
  const runs = dockerRuns(readFileSync(root(file), 'utf8')).filter((run) => run.ports.length > 0);

  it('publishes the webhook port and the operator port on 127.0.0.1 only, as compose.yaml does', () => {
    expect(runs.length).toBeGreaterThan(0);
    const composePorts = (lendbot?.ports ?? []).map(port);
    for (const run of runs) {
      const ports = run.ports.map(port);
      expect(ports).toContainEqual({ host: undefined, published: 8080, target: 8080 });
      expect(ports.filter((mapping) => mapping.target === 8081)).toEqual([{ host: '127.0.0.1', published: 8081, target: 8081 }]);
      expect(ports).toEqual(composePorts);
    }
  });

  it('makes the operator listener listen where it is published, with the operator token passed', () => {
    for (const run of runs) {
      const env = Object.fromEntries([...run.env].filter((entry): entry is [string, string] => entry[1] !== undefined));
      const config = applyEnv(daemonConfigSchema.parse({}), { LENDBOT_WEBHOOK_PORT: '8080', ...env });
      expect(config.ops.host).toBe('0.0.0.0');
      expect(config.ops.port).toBe(8081);
      expect(config.webhook.port).toBe(8080);
      expect(run.env.has('LENDBOT_OPERATOR_TOKEN')).toBe(true);
      expect(run.env.get('LENDBOT_OPERATOR_TOKEN')).toBeUndefined(); // from the shell, never written in the docs
      for (const name of ['LENDBOT_BASE_URL', 'LENDBOT_API_KEY', 'LENDBOT_SECRET_KEY', 'LENDBOT_WEBHOOK_SECRET'])
        expect(run.env.has(name), name).toBe(true);
      expect(run.image).toBe('lendbot');
    }
  });
});

describe('the Dockerfile agrees with compose.yaml and the docker run lines', () => {
  it('exposes both ports and listens for webhooks on 8080', () => {
    const exposed = /^EXPOSE (.+)$/m.exec(dockerfile)?.[1]?.split(/\s+/).map(Number);
    expect(exposed).toEqual([8080, 8081]);
    expect(dockerfile).toMatch(/LENDBOT_WEBHOOK_PORT=8080/);
    expect(dockerfile).toMatch(/LENDBOT_DB=\/data\/lendbot\.db/);
    expect(lendbot?.environment?.LENDBOT_WEBHOOK_PORT).toBe('8080');
  });
});
