// The store's durability setting, in a file of its own (no imports) so the config schema can name
// it without loading SQLite.

/**
 * How hard a commit waits for the disk (SQLite's `synchronous` pragma; the file is always in WAL
 * mode). docs/store.md has the trade-off:
 * - `normal` (default): a commit is written to the WAL file but not fsynced; the WAL is fsynced at
 *   each checkpoint. A committed transaction survives a crash of lendbot's process (the kernel
 *   holds the write), which is what the webhook inbox protects against; an OS crash or a power
 *   cut may lose the last commits (never corrupt the file).
 * - `full`: every commit is fsynced before it returns; it survives an OS crash or a power cut too,
 *   at about one disk flush per commit.
 */
export type SynchronousLevel = 'normal' | 'full';
export const SYNCHRONOUS_LEVELS: readonly SynchronousLevel[] = ['normal', 'full'];
export const DEFAULT_SYNCHRONOUS: SynchronousLevel = 'normal';
