// How the benches print a timing: the label, then milliseconds, aligned.
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
