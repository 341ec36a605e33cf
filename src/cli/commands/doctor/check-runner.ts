/**
 * One line of `lendbot doctor`: a named check, its status, what it found and, when it did not
 * pass, the fix. Each check runs with a bounded time: one that hangs fails, naming the timeout,
 * and the others still run.
 */
type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  name: string;
  status: CheckStatus;
  detail: string;
  fix?: string | undefined;
}

export type CheckOutcome = Omit<CheckResult, 'name'>;

export const passed = (detail: string): CheckOutcome => ({ status: 'ok', detail });
export const warned = (detail: string, fix?: string): CheckOutcome => ({ status: 'warn', detail, fix });
export const failed = (detail: string, fix?: string): CheckOutcome => ({ status: 'fail', detail, fix });
export const skipped = (detail: string): CheckOutcome => ({ status: 'skip', detail });

/** Runs `work`, failing it when it takes longer than `timeoutMs` or throws. */
export async function runCheck(name: string, timeoutMs: number, work: () => Promise<CheckOutcome>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve(failed(`no answer within ${timeoutMs / 1000} s`, 'check the network and the address; --timeout raises the limit')),
      timeoutMs,
    );
  });
  try {
    const outcome = await Promise.race([work().catch((error: unknown) => failed(errorText(error))), timeout]);
    return { name, ...outcome };
  } finally {
    clearTimeout(timer);
  }
}

/** An error in one line: an AppError's text with its hint, else the message. */
export function errorText(error: unknown): string {
  if (error !== null && typeof error === 'object' && 'userText' in error && typeof error.userText === 'function')
    return String(error.userText());
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}

const MARKS: Record<CheckStatus, { tty: string; plain: string }> = {
  ok: { tty: '✓', plain: 'ok' },
  warn: { tty: '!', plain: 'warn' },
  fail: { tty: '✗', plain: 'FAIL' },
  skip: { tty: '-', plain: 'skip' },
};

/** The report for people: one line per check, the fix under a check that did not pass. */
export function formatChecks(results: readonly CheckResult[], tty: boolean): string {
  const markWidth = tty ? 1 : 4;
  const nameWidth = Math.max(...results.map((result) => result.name.length));
  const lines: string[] = [];
  for (const result of results) {
    const mark = (tty ? MARKS[result.status].tty : MARKS[result.status].plain).padEnd(markWidth);
    lines.push(`${mark} ${result.name.padEnd(nameWidth)}  ${result.detail}`);
    if (result.fix !== undefined) lines.push(`${' '.repeat(markWidth)} ${' '.repeat(nameWidth)}  fix: ${result.fix}`);
  }
  const warnings = results.filter((result) => result.status === 'warn').length;
  // A failure is said by the error the command ends with (stderr, exit code 1).
  if (!results.some((result) => result.status === 'fail')) {
    lines.push(`live trading can work${warnings === 0 ? '' : ` (${warnings} warning${warnings === 1 ? '' : 's'} above)`}`);
  }
  return `${lines.join('\n')}\n`;
}
