/** `lendbot strategy features`: the feature catalogue, with kinds, units and meanings. */
import type { Command } from 'commander';
import { FEATURES } from '../../../engine/index.js';
import { printJson, type CliIo } from '../../cli-io.js';
import { formatTable } from './text-table.js';
import { examplesHelp } from '../../examples-help.js';

export function registerFeatures(strategy: Command, io: CliIo): void {
  strategy
    .command('features')
    .description('list the features strategies can use, grouped by where their data comes from')
    .option('--json', 'print the catalogue as JSON')
    .option('--group <group>', 'only one group: request, borrower, affordability, history, banking, provider_a, provider_b')
    .addHelpText('after', '\nbanking and provider features are absent until that data is bought (see docs/features.md).')
    .addHelpText(
      'after',
      examplesHelp('lendbot strategy features', 'lendbot strategy features --group history', [
        'lendbot strategy features --json | jq -r ".[].name"',
        'the names only',
      ]),
    )
    .action((options: { json?: boolean; group?: string }) => {
      const features = FEATURES.filter((feature) => options.group === undefined || feature.group === options.group);
      if (options.json) {
        printJson(
          io,
          features.map(({ name, kind, group, unit, description }) => ({ name, kind, group, unit, description })),
        );
        return;
      }
      const rows = features.map((feature) => [feature.name, feature.group, feature.kind, feature.unit, feature.description]);
      io.stdout.write(formatTable(['feature', 'group', 'kind', 'unit', 'meaning'], rows));
    });
}
