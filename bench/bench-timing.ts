// How the benches print a timing: the label, then milliseconds, aligned.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** Runs `run` once, prints how long it took, returns its result. */
export function time<T>(label: string, run: () => T): T {
  const began = performance.now();
  const result = run();
  console.log(`${label.padEnd(52)} ${(performance.now() - began).toFixed(1).padStart(10)} ms`);
  return result;
}

/** Runs `run` `runs` times and prints the mean. */
export function meanTime(label: string, runs: number, run: () => unknown): void {
  const began = performance.now();
  for (let i = 0; i < runs; i += 1) run();
  console.log(`${`${label}, mean of ${runs}`.padEnd(52)} ${((performance.now() - began) / runs).toFixed(1).padStart(10)} ms`);
}

/** CPU time of the children this process has waited for (Linux /proc, 1/100 s ticks): utime + stime. */
export function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, cutime 16, cstime 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}
