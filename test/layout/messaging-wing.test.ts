/**
 * Messaging (src/messaging/: the notifier, its formats, the digest, the chats' pace and Telegram's
 * commands) is one folder of outward surfaces over the status report, as freqtrade's `rpc/`; ops
 * (src/ops/) keeps the operations. Issue 38 found a 14-file circle across the two once type
 * imports count, so this test counts them: file-cycles.test.ts leaves `import type` out because
 * it cannot half-load a module, but a circle of types still ties files that should come apart.
 *
 * - no file of src/ops or src/messaging reaches itself through their imports, `import type` too;
 * - messaging reads operations only through the status report's modules (STATUS_REPORT);
 * - ops imports nothing of messaging (it reaches a notifier through the daemon's notice relay);
 * - outside the folder only ATTACHED_BY name it, so leaving messaging out is its attach line in
 *   src/daemon/daemon.ts (and the config section and `lendbot doctor`'s check of the notifier).
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCycle, sourceFiles, SRC } from './source-graph.js';

/** The modules of ops messaging may import: the status report, its words and the daemon's reading of it. */
const STATUS_REPORT = ['ops/daemon-status.ts', 'ops/status-report.ts', 'ops/status-text.ts'];

/** The files outside src/messaging that import it: the attach line, the config section, the doctor's notifier check. */
const ATTACHED_BY = ['cli/commands/doctor/listener-checks.ts', 'daemon/daemon-config.ts', 'daemon/daemon.ts'];

/** Every relative import or re-export, `import type` and `export type` included (not dynamic import()). */
const ANY_IMPORT =
  /^(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?)?\s*from\s+'(\.[^']+)'|^import\s+'(\.[^']+)'/gm;

function specifiers(text: string): string[] {
  return [...text.matchAll(ANY_IMPORT)].map((match) => match[1] ?? match[2] ?? '');
}

/** File (relative to src/) -> the files it imports, types included. */
function typeAwareGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    const targets = specifiers(readFileSync(file, 'utf8')).map((specifier) =>
      relative(SRC, resolve(dirname(file), specifier.replace(/\.js$/, '.ts'))),
    );
    graph.set(relative(SRC, file), new Set(targets));
  }
  return graph;
}

const graph = typeAwareGraph();
const inFolder = (folder: string) => (file: string) => file.startsWith(`${folder}/`);
const importsOf = (file: string): string[] => [...(graph.get(file) ?? [])];

describe('messaging beside ops', () => {
  it('has no file circle in src/ops and src/messaging, type imports counted', () => {
    const within = (file: string) => inFolder('ops')(file) || inFolder('messaging')(file);
    const sub = new Map([...graph].filter(([file]) => within(file)).map(([file, targets]) => [file, new Set([...targets].filter(within))]));
    expect(sub.size).toBeGreaterThan(40);
    expect(findCycle(sub)).toBeUndefined();
  });

  it('reads operations only through the status report', () => {
    const files = [...graph.keys()].filter(inFolder('messaging'));
    expect(files).toContain('messaging/attach-messaging.ts');
    const intoOps = files.flatMap((file) =>
      importsOf(file)
        .filter(inFolder('ops'))
        .map((target) => `${file} -> ${target}`),
    );
    expect(intoOps.filter((edge) => !STATUS_REPORT.some((allowed) => edge.endsWith(` -> ${allowed}`)))).toEqual([]);
  });

  it('is not imported by ops, and outside its folder only by its attach line, its config section and the doctor', () => {
    const importers = [...graph.keys()].filter((file) => !inFolder('messaging')(file) && importsOf(file).some(inFolder('messaging')));
    expect(importers.sort()).toEqual(ATTACHED_BY);
  });

  it('counts `import type` and re-exports (the check itself works)', () => {
    const text = [
      "import type { A } from './a.js';",
      "export type { B } from './b.js';",
      "import { c } from './c.js';",
      "import './d.js';",
    ].join('\n');
    expect(specifiers(text)).toEqual(['./a.js', './b.js', './c.js', './d.js']);
  });
});
