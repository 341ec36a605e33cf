/** Resident memory of a process, for the benches that watch a daemon (daemon-memory.ts, soak.ts). */
import { readFileSync } from 'node:fs';

/** The process's resident set size in bytes (Linux /proc), 0 once it is gone. */
export function rssOf(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
