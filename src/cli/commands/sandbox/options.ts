/** Argument parsers shared by the `lendbot sandbox` subcommands. */
import { MARKET_SHAPES, SCORE_LINKS, type HistoryRateMode, type ScoreLinkName } from '../../../sandbox/index.js';
import { UserError } from '../../user-error.js';

/** A whole number within bounds, or a usage error naming the flag. */
export function wholeNumber(flag: string, min: number, max = Number.MAX_SAFE_INTEGER): (text: string) => number {
  return (text: string) => {
    const value = Number(text.trim());
    if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
      throw new UserError(`${flag} must be a whole number from ${min} to ${max} (got "${text}")`, 'USAGE');
    }
    return value;
  };
}

/** A positive number (decimals allowed). */
export function positiveNumber(flag: string): (text: string) => number {
  return (text: string) => {
    const value = Number(text.trim());
    if (text.trim() === '' || !Number.isFinite(value) || value <= 0)
      throw new UserError(`${flag} must be a number above 0 (got "${text}")`, 'USAGE');
    return value;
  };
}

/** A number from 0 (decimals allowed). */
export function nonNegativeNumber(flag: string): (text: string) => number {
  return (text: string) => {
    const value = Number(text.trim());
    if (text.trim() === '' || !Number.isFinite(value) || value < 0)
      throw new UserError(`${flag} must be a number from 0 (got "${text}")`, 'USAGE');
    return value;
  };
}

/** An ISO 8601 time. */
export function isoTimeText(flag: string): (text: string) => string {
  return (text: string) => {
    if (Number.isNaN(Date.parse(text)))
      throw new UserError(`${flag} must be an ISO 8601 time such as 2026-01-01T00:00:00Z (got "${text}")`, 'USAGE');
    return text;
  };
}

/** A market shape's name (src/sandbox/shapes/). */
export function shapeName(flag: string): (text: string) => string {
  return (text: string) => {
    const name = text.trim();
    if (!(name in MARKET_SHAPES))
      throw new UserError(`${flag} must be one of ${Object.keys(MARKET_SHAPES).join(', ')} (got "${text}")`, 'USAGE');
    return name;
  };
}

/** A score link's name (src/sandbox/shapes/world-shift.ts). */
export function scoreLinkName(flag: string): (text: string) => ScoreLinkName {
  return (text: string) => {
    const name = text.trim();
    if (!Object.hasOwn(SCORE_LINKS, name))
      throw new UserError(`${flag} must be one of ${Object.keys(SCORE_LINKS).join(', ')} (got "${text}")`, 'USAGE');
    return name as ScoreLinkName;
  };
}

/** How borrowers' past loans were priced (src/sandbox/history-rates.ts). */
export function historyRateModeName(flag: string): (text: string) => HistoryRateMode {
  return (text: string) => {
    const name = text.trim();
    if (name !== 'market' && name !== 'uniform') throw new UserError(`${flag} must be market or uniform (got "${text}")`, 'USAGE');
    return name;
  };
}

/** `--help` text listing every score link with its one-line description. */
export function scoreLinksHelp(): string {
  return Object.entries(SCORE_LINKS)
    .map(([name, link]) => `  ${name.padEnd(14)} ${link.description}`)
    .join('\n');
}

/** `--help` text listing every shape with its one-line description. */
export function shapesHelp(): string {
  return Object.values(MARKET_SHAPES)
    .map((shape) => `  ${shape.name.padEnd(11)} ${shape.description}`)
    .join('\n');
}

/** Where the sandbox's webhook tokens put the event: envelope or data (docs/webhooks.md). */
export function tokenLayout(flag: string): (text: string) => 'envelope' | 'data' {
  return (text: string) => {
    const layout = text.trim();
    if (layout !== 'envelope' && layout !== 'data') throw new UserError(`${flag} must be envelope or data (got "${text}")`, 'USAGE');
    return layout;
  };
}
