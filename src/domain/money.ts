/**
 * Money inside lendbot is integer cents. The service sends USD amounts as decimal strings
 * ("1250.00", "-35.5") on most resources and as floats on loans; this module is the one place
 * that turns either into cents and back.
 */

/** Integer number of US cents. */
export type Cents = number;

const DECIMAL = /^([+-])?(\d+)(?:\.(\d+))?$/;

/** Whether `text` is a plain decimal number the service could send ("12", "-3.50"). */
export function isDecimalText(text: string): boolean {
  // The usual form is read without a regular expression (checking a recording asks this of a
  // few amounts per line); what plainCents reads, DECIMAL matches too.
  return plainCents(text) !== undefined || DECIMAL.test(text.trim());
}

/** Digits after the decimal point of a plain decimal text ("12" 0, "3.50" 2, "300.001" 3). */
export function decimalPlaces(text: string): number {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new RangeError(`not a decimal amount: ${JSON.stringify(text)}`);
  return (match[3] ?? '').length;
}

/**
 * parseCents without the throw: the cents of a plain decimal text whose cents are a safe integer,
 * else undefined ("1e9", "NaN", "", an amount of 2^53 cents or more). For checking what the
 * service sent, where an odd amount is a finding about one item, never an exception.
 */
export function centsOf(text: string): Cents | undefined {
  const fast = plainCents(text);
  if (fast !== undefined) return fast;
  if (!DECIMAL.test(text.trim())) return undefined;
  try {
    return parseCents(text);
  } catch {
    return undefined;
  }
}

/** Whether a float dollar amount converts to a whole number of cents that is a safe integer. */
export function isSafeDollars(dollars: number): boolean {
  return Number.isFinite(dollars) && Math.abs(dollars * 100) <= Number.MAX_SAFE_INTEGER;
}

/**
 * Parses a decimal string into cents, rounding half away from zero past the second place.
 * Throws a RangeError on anything that is not a plain decimal (no exponents, no commas).
 */
export function parseCents(text: string): Cents {
  const fast = plainCents(text);
  if (fast !== undefined) return fast;
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new RangeError(`not a decimal amount: ${JSON.stringify(text)}`);
  const [, sign, whole = '0', fraction = ''] = match;
  const padded = (fraction + '000').slice(0, 3);
  const thousandths = Number(whole) * 1000 + Number(padded);
  let cents = Math.floor(thousandths / 10);
  if (thousandths % 10 >= 5) cents += 1;
  if (!Number.isSafeInteger(cents)) throw new RangeError(`amount out of range: ${text}`);
  return sign === '-' ? -cents : cents;
}

const ZERO = 48;
const NINE = 57;
const DOT = 46;
const MINUS = 45;
/** Whole-dollar digits the fast path takes: well inside exact double arithmetic. */
const FAST_WHOLE_DIGITS = 12;

/**
 * parseCents of the form the service sends nearly always ("1250.00", "-35.5", "12"), without a
 * regular expression or substrings: a replay parses a few amounts per request. The same
 * arithmetic as parseCents (thousandths, then half away from zero); undefined for anything else
 * (spaces, a plus sign, long numbers, malformed text), which parseCents then handles.
 */
function plainCents(text: string): Cents | undefined {
  const length = text.length;
  let index = 0;
  const negative = length > 0 && text.charCodeAt(0) === MINUS;
  if (negative) index = 1;
  const wholeStart = index;
  let whole = 0;
  for (; index < length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < ZERO || code > NINE) break;
    whole = whole * 10 + (code - ZERO);
  }
  const wholeDigits = index - wholeStart;
  if (wholeDigits === 0 || wholeDigits > FAST_WHOLE_DIGITS) return undefined;
  let thousandths = whole * 1000;
  if (index < length) {
    if (text.charCodeAt(index) !== DOT) return undefined;
    index += 1;
    const fractionStart = index;
    let scale = 100;
    for (; index < length; index += 1) {
      const code = text.charCodeAt(index);
      if (code < ZERO || code > NINE) return undefined;
      // Only the first three decimals count, as in parseCents.
      if (scale >= 1) thousandths += (code - ZERO) * scale;
      scale /= 10;
    }
    if (index === fractionStart) return undefined;
  }
  let cents = Math.floor(thousandths / 10);
  if (thousandths % 10 >= 5) cents += 1;
  return negative ? -cents : cents;
}

/** Converts a float dollar amount (as loans carry them) to cents, rounding to the nearest cent. */
export function dollarsToCents(dollars: number): Cents {
  if (!Number.isFinite(dollars)) throw new RangeError(`not a finite amount: ${dollars}`);
  // toFixed(2) rounds the binary value, which avoids 0.1 + 0.2 style drift turning 12.30 into 1229.
  return parseCents(dollars.toFixed(2));
}

/** Parses either form the service uses for an amount: decimal text or a float. */
export function amountToCents(amount: string | number): Cents {
  return typeof amount === 'number' ? dollarsToCents(amount) : parseCents(amount);
}

/** Formats cents as a decimal string with two places ("-0.05", "1250.00"). */
export function formatCents(cents: Cents): string {
  if (!Number.isInteger(cents)) throw new RangeError(`cents must be an integer: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const rest = abs % 100;
  // Not padStart: reasons format a few amounts for every refused request of a replay.
  return `${sign}${whole}.${rest < 10 ? '0' : ''}${rest}`;
}
