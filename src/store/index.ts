// The store's public face: open one SQLite file and get a repository per table group.
import { checkpointWal, openDatabase, type Database, type OpenDatabaseOptions } from './database.js';
import { openDatabaseReadOnly, refuseForeignDatabase, unreadableOr } from './database-identity.js';
import { MIGRATIONS } from './migrations.js';
import { createAccountRepository, type AccountRepository } from './account-repository.js';
import { createCalibrationRepository, type CalibrationRepository } from './calibration-repository.js';
import { createCashFlowRepository, type CashFlowRepository } from './cash-flow-repository.js';
import { createDecisionsRepository, type DecisionsRepository } from './decisions-repository.js';
import { createExposureRepository, type ExposureRepository } from './exposure-repository.js';
import { createInboxRepository, type InboxRepository } from './inbox-repository.js';
import { createOffersRepository, type OffersRepository } from './offers-repository.js';
import { createPaperBook, type PaperBook } from './paper-book.js';
import { createPaymentsRepository, type PaymentsRepository } from './payments-repository.js';
import { createProposalsRepository, type ProposalsRepository } from './proposals-repository.js';
import { createPurchasesRepository, type PurchasesRepository } from './purchases-repository.js';
import { createRequestsRepository, type RequestsRepository } from './requests-repository.js';
import { createSignalsRepository, type SignalsRepository } from './signals-repository.js';
import { createStateRepository, type StateRepository } from './state-repository.js';
import { createTelegramUpdatesRepository, type TelegramUpdatesRepository } from './telegram-updates-repository.js';
import { createStoreModeRepository, type StoreModeRepository } from './store-mode.js';

export * from './database.js';
export * from './migrations.js';
export { StoreNeedsUpgradeError } from './database-identity.js';
export * from './account-repository.js';
export * from './calibration-repository.js';
export type { HazardCounts } from './hazard-repository.js';
export * from './cash-flow-repository.js';
export * from './decisions-repository.js';
export type { DecisionAction, DecisionCalibration, StoredDecision } from './decision-row.js';
export { SCAN_WINDOW, UnknownCursorError, type PagedDecision } from './decision-page.js';
export * from './exposure-repository.js';
export * from './inbox-repository.js';
export * from './offers-repository.js';
export type { OfferRecord, OfferState } from './offer-row.js';
export { offerJson } from './offer-json.js';
export { OFFER_VIEW_STATES, type OfferView, type OfferViewQuery, type OfferViewState, type OfferMonthCount } from './offer-view.js';
export * from './paper-book.js';
export * from './payments-repository.js';
export * from './proposals-repository.js';
export * from './purchases-repository.js';
export * from './requests-repository.js';
export * from './retrain-repository.js';
export * from './signals-repository.js';
export * from './state-repository.js';
export * from './telegram-updates-repository.js';
export * from './state-keys.js';
export * from './store-mode.js';
export { REDACTED_TEXT, redactPersonalData } from './redact-personal-data.js';
export { isoFromMs, msFromIso, utcDayBounds } from './sql-values.js';

/** Everything lendbot remembers, in one SQLite file, through its repositories (no SQL outside src/store). */
export interface Store {
  requests: RequestsRepository;
  purchases: PurchasesRepository;
  decisions: DecisionsRepository;
  offers: OffersRepository;
  exposure: ExposureRepository;
  inbox: InboxRepository;
  account: AccountRepository;
  payments: PaymentsRepository;
  state: StateRepository;
  signals: SignalsRepository;
  /** The offers agents asked for, waiting for a person or placed within their token's allowance. */
  proposals: ProposalsRepository;
  /** A dry run's would-be offers with what the models said of them (docs/daemon.md, "Paper book"). */
  paper: PaperBook;
  /** Predicted against realised default of the lender's loans, by vintage (src/ops/calibration.ts). */
  calibration: CalibrationRepository;
  /** The recent acceptance flow and skip causes the cash-flow forecast and idle-cash view read. */
  cashFlow: CashFlowRepository;
  /** The Telegram updates already obeyed (src/messaging/telegram-commands), none twice. */
  telegramUpdates: TelegramUpdatesRepository;
  /** Whether the file holds a dry run or live offers (store-mode.ts). */
  mode: StoreModeRepository;
  /** Checkpoints the WAL into the file (the daemon does it when idle); nothing once closed. */
  checkpoint(): void;
  /** Closes the file; idempotent. */
  close(): void;
}

/** Opens (creating the file and its parent directory if needed) and migrates a store; ':memory:' works. */
export function openStore(path: string, options: OpenDatabaseOptions = {}): Store {
  // Another program's database is never migrated into lendbot's (nor chmod-ed).
  refuseForeignDatabase(path);
  return storeOn(openDatabase(path, MIGRATIONS, options));
}

/**
 * Opens lendbot's existing database for a command that only reads it: read-only, never migrated
 * or chmod-ed; another program's file, an empty one, a damaged one or one of another schema
 * version is refused with a one-line error (database-identity.ts). Any write through it fails.
 */
export function openStoreReadOnly(path: string): Store {
  return storeOn(openDatabaseReadOnly(path));
}

/**
 * Runs `read` on the database opened read-only and closes it; a file found damaged while it is
 * read (its header was sound, a later page is not) is the same one-line error as at opening.
 */
export async function readStore<T>(path: string, read: (store: Store) => T | Promise<T>): Promise<T> {
  const store = openStoreReadOnly(path);
  try {
    return await read(store);
  } catch (error) {
    throw unreadableOr(error, path);
  } finally {
    store.close();
  }
}

function storeOn(db: Database): Store {
  const store: Store = {
    requests: createRequestsRepository(db),
    purchases: createPurchasesRepository(db),
    decisions: createDecisionsRepository(db),
    offers: createOffersRepository(db),
    exposure: createExposureRepository(db),
    inbox: createInboxRepository(db),
    account: createAccountRepository(db),
    payments: createPaymentsRepository(db),
    state: createStateRepository(db),
    signals: createSignalsRepository(db),
    proposals: createProposalsRepository(db),
    paper: createPaperBook(db),
    calibration: createCalibrationRepository(db),
    cashFlow: createCashFlowRepository(db),
    telegramUpdates: createTelegramUpdatesRepository(db),
    mode: createStoreModeRepository(db),
    checkpoint() {
      if (db.open) checkpointWal(db);
    },
    close() {
      if (db.open) db.close();
    },
  };
  connections.set(store, db);
  return store;
}

const connections = new WeakMap<Store, Database>();

/**
 * The SQLite connection behind a store, for tests, benchmarks and maintenance scripts that must
 * look under the repositories. Application code goes through the repositories.
 */
export function databaseOf(store: Store): Database {
  const db = connections.get(store);
  if (db === undefined) throw new Error('not a store opened by openStore');
  return db;
}
