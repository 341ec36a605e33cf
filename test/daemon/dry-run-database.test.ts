// A dry run's database says it is one: after a real dry-run daemon against the sandbox, `lendbot
// status --db` with no dry-run config or environment shows the paper offers' reservations and
// today's offers as the operator API did; a live run on that file is refused with one line
// unless --switch-db-mode, and a dry run on a live file likewise.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OverviewAnswer } from '../../src/operator/api/api-types.js';
import { openStore } from '../../src/store/index.js';
import { runCli } from '../cli/run-cli.js';
import { startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('a dry-run database', () => {
  it('shows its paper offers in lendbot status without --dry-run, as the API did', async () => {
    harness = await startDaemonHarness({ dryRun: true, sandbox: { arrivalsPerHour: 0 } });
    const h = harness;
    for (let i = 0; i < 2; i += 1) h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    await h.daemon.runJob('poll');
    expect(h.sandbox.control.offers()).toHaveLength(0);
    const overview = (await (await fetch(new URL('/api/overview', h.daemon.operatorUrl()!))).json()) as OverviewAnswer;
    expect(overview.dryRun).toBe(true);
    expect(overview.status.offersToday.offers).toBe(2);
    expect(overview.status.reservedCents).toBeGreaterThan(0);
    await h.daemon.stop();

    // The repository's config/lendbot.yaml says dry_run: false, and no LENDBOT_DRY_RUN is set.
    const db = join(h.dir, 'lendbot.db');
    const json = await runCli(['status', '--db', db, '--json']);
    expect(json.code).toBe(0);
    const status = JSON.parse(json.stdout) as {
      scope: string;
      reserved_cents: number;
      offers_today: { offers: number; amount_cents: number };
      free_cents: number;
    };
    expect(status.scope).toBe('dry_run');
    expect(status.reserved_cents).toBe(overview.status.reservedCents);
    expect(status.offers_today).toMatchObject({ offers: 2, amount_cents: overview.status.offersToday.amountCents });
    expect(status.free_cents).toBe(overview.status.freeCents);
    const text = await runCli(['status', '--db', db]);
    expect(text.stdout).toMatch(/^as of +\S+ \(dry-run offers\)$/m);
    // What the file says of itself: the daemon recorded it as it opened it.
    expect(h.store.mode.get()).toMatchObject({ mode: 'dry_run', how: 'daemon' });
  });

  it('refuses a live run on a dry-run database, and a dry run on a live one, with one line', async () => {
    harness = await startDaemonHarness({ dryRun: true, sandbox: { arrivalsPerHour: 0 } });
    const db = join(harness.dir, 'lendbot.db');
    await harness.daemon.stop();
    // The sandbox run refuses a file with decisions of another run: this one made none.
    const live = await runCli(['run', '--sandbox', '--db', db]);
    expect(live.code).toBe(1);
    expect(live.stderr.trim().split('\n').at(-1)).toBe(
      `lendbot: database ${db} holds a dry run: add --dry-run (or LENDBOT_DRY_RUN=true) to go on with it, ` +
        'point --db (LENDBOT_DB) at another file for live offers, or add --switch-db-mode to make this one live',
    );

    const store = openStore(db);
    try {
      store.mode.set('live', Date.parse('2026-01-01T00:00:00Z'), 'daemon');
    } finally {
      store.close();
    }
    const dry = await runCli(['run', '--sandbox', '--dry-run', '--db', db]);
    expect(dry.code).toBe(1);
    expect(dry.stderr.trim().split('\n').at(-1)).toBe(
      `lendbot: database ${db} holds live offers: point --db (LENDBOT_DB) at another file for a dry run, ` +
        'drop --dry-run (and LENDBOT_DRY_RUN) to go on live, or add --switch-db-mode to make this one a dry run',
    );
  });
});
