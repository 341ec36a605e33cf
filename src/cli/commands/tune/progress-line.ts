/**
 * A one-line progress bar on stderr, redrawn with `\r`; silent when stderr is not a terminal or
 * in CI, so logs and pipes stay clean.
 */
import type { CliIo } from '../../cli-io.js';

export function progressLine(
  io: CliIo,
  label: string,
): { active: boolean; update: (done: number, total: number) => void; finish: () => void } {
  const active = io.stderr.isTTY === true && !io.env.CI;
  let last = -1;
  return {
    /** Whether the bar is drawn (a terminal outside CI): another line then starts on a fresh one. */
    active,
    update(done, total) {
      if (!active || total === 0) return;
      const percent = Math.floor((done / total) * 100);
      if (percent === last) return;
      last = percent;
      const filled = Math.round(percent / 5);
      io.stderr.write(`\r${label} [${'#'.repeat(filled)}${' '.repeat(20 - filled)}] ${done}/${total}`);
    },
    finish() {
      if (active && last >= 0) io.stderr.write('\n');
    },
  };
}
