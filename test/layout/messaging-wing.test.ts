/**
 * Messaging (src/messaging/: the notifier, its formats, the digest, the chats' pace and Telegram's
 * commands) is one folder of outward surfaces over the status report, as freqtrade's `rpc/`; ops
 * (src/ops/) keeps the operations. Issue 38 found a 14-file circle across the two once type
 * imports count, so this test counts them (file-cycles.test.ts now does too, for all of src/).
 *
 * - no file of src/ops or src/messaging reaches itself through their imports, `import type` too;
 * - messaging reads operations only through the status report's modules (STATUS_REPORT);
 * - ops imports nothing of messaging (it reaches a notifier through the daemon's notice relay);
 * - outside the folder only ATTACHED_BY name it: its attach line, and its entry among the wings
 *   whose config sections the daemon's configuration composes and whose checks `lendbot doctor`
 *   runs. Deleting the folder and those two lines leaves lendbot whole.
 */
import { describe, expect, it } from 'vitest';
import { fileGraph, findCycle, importsInto } from './source-graph.js';

/** The modules of ops messaging may import: the status report, its words and the daemon's reading of it. */
const STATUS_REPORT = ['ops/daemon-status.ts', 'ops/status-report.ts', 'ops/status-text.ts'];

/**
 * The only imports of src/messaging from outside it: the attach line (daemon.ts) and the wing's
 * entry (wing-parts.ts: the `notifications:` section and the doctor's notifications line).
 */
const ATTACHED_BY = ['daemon/daemon.ts -> messaging/attach-messaging.ts', 'daemon/wing-parts.ts -> messaging/messaging-wing.ts'];

const graph = fileGraph();
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

  it('is not imported by ops, and outside its folder only by its attach line and its entry among the wings', () => {
    expect(importsInto('messaging', graph)).toEqual(ATTACHED_BY);
  });
});
