import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/**
 * Temp directories the tests write recordings into, removed when they are done: a whole run used
 * to leave eight folders in the system's temp directory, some holding megabytes of recordings.
 */

function freshDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A directory for the whole test file (call it at the file's top level): removed after its last test. */
export function tempDirForFile(prefix: string): string {
  const { dir, remove } = freshDir(prefix);
  afterAll(remove);
  return dir;
}

/** A directory for one test (call it inside `it`): removed when that test finishes, passed or failed. */
export function tempDirForTest(prefix: string): string {
  const { dir, remove } = freshDir(prefix);
  onTestFinished(remove);
  return dir;
}
