/** What every `lendbot api` subcommand shares: a client built from the environment, and output. */
import { envHelp } from '../../env-help.js';
import type { Command } from 'commander';
import {
  collectPages,
  createMarketplaceClient,
  formatItemIssue,
  serviceConfigFromEnv,
  SERVICE_ENV_HELP,
  type ItemIssue,
  type MarketplaceClient,
  type Page,
  type PageIterator,
} from '../../../service/index.js';
import { printJson, warn, type CliIo } from '../../cli-io.js';
import { UserError } from '../../user-error.js';

/** Runs `work` with a client configured from the environment, closing it afterwards. */
export async function withClient<T>(io: CliIo, work: (client: MarketplaceClient) => Promise<T>): Promise<T> {
  const client = createMarketplaceClient(serviceConfigFromEnv(io.env));
  try {
    return await work(client);
  } finally {
    client.close();
  }
}

/** Prints items left out by validation as warnings on stderr. */
export function reportIssues(io: CliIo, issues: readonly ItemIssue[]): void {
  for (const issue of issues) warn(io, formatItemIssue(issue));
}

/**
 * Prints a list: with `all`, one JSON array of every item across pages; otherwise the page
 * envelope (count, next, previous, results) of one page.
 */
export async function printList<T>(
  io: CliIo,
  options: { all?: boolean; page?: number },
  onePage: (page: number | undefined) => Promise<Page<T>>,
  everyPage: () => PageIterator<T>,
): Promise<void> {
  if (options.all) {
    const { items, issues } = await collectPages(everyPage());
    reportIssues(io, issues);
    printJson(io, items);
    return;
  }
  const page = await onePage(options.page);
  reportIssues(io, page.issues);
  printJson(io, { count: page.count, next: page.next, previous: page.previous, results: page.items });
}

/** Parses a positive whole-number argument, or fails with a usage error naming it. */
export function positiveInt(name: string): (text: string) => number {
  return (text: string) => {
    if (!/^\d+$/.test(text.trim()) || Number(text) < 1)
      throw new UserError(`${name} must be a positive whole number (got "${text}")`, 'USAGE');
    return Number(text);
  };
}

/** Adds `--all` and `--page N` to a list command. */
export function withPaging(command: Command): Command {
  return command
    .option('--all', 'follow `next` links and print every item as one JSON array')
    .option('--page <n>', 'fetch this page (starts at 1)', positiveInt('--page'));
}

export const ENV_HELP_TEXT = `${envHelp('Environment', SERVICE_ENV_HELP)}
Output: JSON on stdout; errors and warnings about items left out on stderr.`;
