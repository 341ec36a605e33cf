// How the dashboard shows numbers and times: rates as percent (0.228 → "22.8 %"), money as
// dollars (cents → "$1,234.56"), times in UTC, 24-hour, as the daemon's clock reads them (in the
// sandbox, that is the simulated clock, so the browser's own time zone or clock would only
// mislead: the page never shows the browser's time).

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const wholeDollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const counts = new Intl.NumberFormat('en-US');

/** Integer cents as dollars; a dash for null. */
export function money(cents) {
  return typeof cents === 'number' ? dollars.format(cents / 100) : '—';
}

/** Integer cents as whole dollars (chart ticks). */
export function moneyShort(cents) {
  return typeof cents === 'number' ? wholeDollars.format(cents / 100) : '—';
}

/** A fraction as a percent with one decimal; a dash for null. */
export function percent(fraction, digits = 1) {
  return typeof fraction === 'number' ? `${(fraction * 100).toFixed(digits)} %` : '—';
}

// The spec's risk levels (borrower_card_color), as the API's numbers index them.
const RISK_LEVELS = ['low', 'medium', 'high', 'friends', 'crypto'];

/** A risk level number as its name ("high"); a dash for null. */
export function riskName(level) {
  if (level === null || level === undefined) return '—';
  return RISK_LEVELS[Number(level)] ?? `level ${level}`;
}

export function count(n) {
  return typeof n === 'number' ? counts.format(n) : '—';
}

/** A count with its noun, singular for one ("1 offer", "3 offers"); `many` for irregular plurals. */
export function counted(n, one, many = `${one}s`) {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** An ISO time as "2026-01-01 12:34 UTC"; a dash for null. */
export function time(iso) {
  if (typeof iso !== 'string' || iso.length < 16) return '—';
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** An ISO time as "12:34:56" (the day is in the section's heading). */
export function clockTime(iso) {
  return typeof iso === 'string' && iso.length >= 19 ? iso.slice(11, 19) : '—';
}

/** An ISO time as its day, "2026-01-01". */
export function day(iso) {
  return typeof iso === 'string' ? iso.slice(0, 10) : '—';
}

/** Seconds as "42 s ago", "5 min ago", "3 h ago", "2 d ago". */
export function age(seconds) {
  if (typeof seconds !== 'number') return 'never';
  if (seconds < 90) return `${Math.round(seconds)} s ago`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} d ago`;
}

/** A feature's or parameter's value as text. */
export function value(v) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Math.round(v * 10000) / 10000);
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A duration in seconds as "1 s", "24 s", "6 min", "2 h", "3 d". */
export function duration(seconds) {
  if (seconds < 90) return `${Number(seconds.toPrecision(2))} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} d`;
}

/**
 * The one clock every time on the page is in, named: "Run clock: UTC" live; in the sandbox
 * "Run clock: simulated, 1 day = 1 s (86,400× real time)". `clock` is the status report's.
 */
export function clockLabel(clock) {
  if (!clock || clock.kind !== 'simulated') return 'Run clock: UTC, 24-hour';
  const pace =
    clock.speed > 1
      ? `1 day = ${duration(86400 / clock.speed)} (${count(clock.speed)}× real time)`
      : 'moved by the sandbox, not by real time';
  return `Run clock: simulated, ${pace}; times in UTC, 24-hour`;
}

/** The page's clock as the overview last read it (status.clock and status.at), for times kept in real time. */
let pageClock = null;

/** The event a part listens to, to draw its real-time times again once the page's clock is known. */
export const PAGE_CLOCK_EVENT = 'lendbot:page-clock';

/** Called by the overview with each status report. */
export function setPageClock(clock, at) {
  const before = pageClock?.kind;
  pageClock = clock ? { ...clock, at } : null;
  // Parts drawn before the first overview answer drew their times without knowing the clock.
  if (pageClock?.kind !== before) window.dispatchEvent(new window.Event(PAGE_CLOCK_EVENT));
}

/**
 * A time kept in real time (a person's: when an agent asked, when its proposal expires, when a
 * report file was written) on a page whose other times are the run's clock. Live both are one
 * clock. When the run's clock is simulated the time is labelled "real time", and, when the
 * clock runs at a known speed, shown on the run's clock first, so no bare time of the other
 * clock stands among the page's.
 */
export function realTime(iso) {
  if (!pageClock || pageClock.kind !== 'simulated') return time(iso);
  if (typeof iso !== 'string') return '—';
  const wallAt = Date.parse(pageClock.readAtWall ?? '');
  const runAt = Date.parse(pageClock.at ?? '');
  if (pageClock.speed > 1 && Number.isFinite(wallAt) && Number.isFinite(runAt)) {
    const onRunClock = new Date(runAt + (Date.parse(iso) - wallAt) * pageClock.speed).toISOString();
    return `${time(onRunClock)} on the run's clock (${time(iso)} real time)`;
  }
  return `${time(iso)} real time`;
}

/** Text with ISO times in it (a proposal's state), each as realTime says it. */
export function withRealTimes(text) {
  return typeof text === 'string' ? text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, (iso) => realTime(iso)) : text;
}

/** How long ago by the run's clock, and in real time too when the clock is simulated and faster. */
export function ageOnClock(seconds, clock) {
  if (typeof seconds !== 'number') return 'never';
  // Under a minute of real time goes without saying.
  const simulated = clock && clock.kind === 'simulated' && clock.speed > 1 && seconds >= 60;
  return simulated ? `${age(seconds)} (${duration(seconds / clock.speed)} real time)` : age(seconds);
}

/** Who decided a decision (docs/decision-shape.md): its strategy, or the agent (`agent:NAME`). */
export function decidedBy(decision) {
  return decision.source === 'strategies' ? (decision.strategy ?? '—') : decision.source;
}
