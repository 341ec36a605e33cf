/**
 * The table of refusal texts (issue 15, item 6): the service's texts map to stable codes, a
 * deployment's config extends the table, a bad regex is a config error with file:line, and the
 * client classifies answers by the codes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigFileError } from '../../src/config/index.js';
import { loadDaemonConfig } from '../../src/daemon/daemon-config.js';
import { FUND_TEXTS, OFFER_TEXTS } from '../../src/sandbox/offer-rules.js';
import { RefusalTexts, ServiceError, type RefusalCode } from '../../src/service/index.js';
import { startHarness, type Harness } from './client-harness.js';

let harness: Harness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the built-in table', () => {
  const table = new RefusalTexts();

  it('gives every refusal text of the sandbox its code', () => {
    const expected: Array<[string, RefusalCode]> = [
      [OFFER_TEXTS.alreadyOffered, 'offer_exists'],
      [OFFER_TEXTS.borrowing, 'investor_borrowing'],
      [OFFER_TEXTS.noBank, 'no_verified_bank'],
      [OFFER_TEXTS.maxRate(0.6), 'rate_above_max'],
      [OFFER_TEXTS.balance, 'insufficient_balance'],
      [OFFER_TEXTS.canceled, 'request_canceled'],
      [OFFER_TEXTS.signed, 'request_signed'],
      [OFFER_TEXTS.acceptedOther, 'accepted_other_offer'],
      [OFFER_TEXTS.closed, 'request_closed'],
      [FUND_TEXTS.processed, 'fund_already_started'],
      [FUND_TEXTS.notAccepted, 'offer_not_accepted'],
      [FUND_TEXTS.notOffered, 'request_not_offered'],
      [FUND_TEXTS.noFundingResource, 'no_funding_resource'],
      [FUND_TEXTS.balance(100, 200), 'insufficient_balance'],
      ['Invalid page.', 'invalid_page'],
    ];
    expect(expected.map(([text]) => [text, table.codeOf(text)])).toEqual(expected);
  });

  it('matches whatever the case, and knows nothing of other texts', () => {
    expect(table.codeOf('YOU HAVE ALREADY MADE AN OFFER for this loan request')).toBe('offer_exists');
    expect(table.codeOf('An offer already exists.')).toBe('offer_exists');
    expect(table.codeOf('The loan request has been cancelled')).toBe('request_canceled');
    expect(table.codeOf('Something else went wrong.')).toBeUndefined();
    expect(table.codeOf(undefined)).toBeUndefined();
  });
});

describe('texts added in config', () => {
  it('are checked before the built-in ones, as substrings or /regexes/', () => {
    const table = new RefusalTexts([
      { pattern: 'duplicate offer', code: 'offer_exists' },
      { pattern: '/^lender (is|has been) flagged as a borrower$/', code: 'investor_borrowing' },
      // Overrides a built-in reading: this service says "no longer open" once it has signed.
      { pattern: 'no longer open', code: 'request_signed' },
    ]);
    expect(table.codeOf('Duplicate Offer.')).toBe('offer_exists');
    expect(table.codeOf('Lender has been flagged as a borrower')).toBe('investor_borrowing');
    expect(table.codeOf('Lender has been flagged as a borrower today')).toBeUndefined();
    expect(table.codeOf('This loan request is no longer open for offers.')).toBe('request_signed');
  });

  async function loadConfig(yaml: string): Promise<unknown> {
    const dir = mkdtempSync(join(tmpdir(), 'lendbot-refusals-'));
    dirs.push(dir);
    const file = join(dir, 'lendbot.yaml');
    writeFileSync(file, yaml);
    return loadDaemonConfig(file, {}).catch((error: unknown) => error);
  }

  it('are read from service.refusal_texts', async () => {
    const config = await loadConfig('service:\n  refusal_texts:\n    - { pattern: "/dup(licate)? offer/", code: offer_exists }\n');
    expect(config).toMatchObject({ service: { refusal_texts: [{ pattern: '/dup(licate)? offer/', code: 'offer_exists' }] } });
  });

  it('refuses a bad regex or an unknown code with the file, line and column', async () => {
    const error = await loadConfig(
      'db: x.db\nservice:\n  refusal_texts:\n    - pattern: "/already (made/"\n      code: offer_exists\n    - { pattern: "gone", code: offer_gone }\n',
    );
    expect(error).toBeInstanceOf(ConfigFileError);
    const message = (error as ConfigFileError).message;
    expect(message).toMatch(/lendbot\.yaml:4:\d+ service\.refusal_texts\[0\]\.pattern: not a valid regex: .*already \(made/);
    expect(message).toMatch(/lendbot\.yaml:6:\d+ service\.refusal_texts\[1\]\.code: .*offer_exists/);
  });
});

describe('the client classifies answers by code', () => {
  const OFFER = 'POST /api/v3/loan_requests/7/make_offer/';
  async function offerFailure(
    status: number,
    detail: string,
    refusalTexts?: Array<{ pattern: string; code: RefusalCode }>,
  ): Promise<ServiceError> {
    harness = await startHarness(refusalTexts ? { refusalTexts } : {});
    harness.server.route(OFFER, () => ({ status, body: { detail } }));
    const error = await harness.client.makeOffer(7, { offeredInterest: 0.3 }).catch((failure: unknown) => failure);
    if (!(error instanceof ServiceError)) throw new Error('expected a ServiceError');
    return error;
  }

  it('carries the code of a recognised text on a 400', async () => {
    const error = await offerFailure(400, OFFER_TEXTS.alreadyOffered);
    expect([error.code, error.refusal, error.serviceText]).toEqual(['RULE_REFUSED', 'offer_exists', OFFER_TEXTS.alreadyOffered]);
  });

  it('reads another 4xx with a recognised text as a refusal (the status is "not shown")', async () => {
    const error = await offerFailure(409, OFFER_TEXTS.alreadyOffered);
    expect([error.code, error.refusal, error.status]).toEqual(['RULE_REFUSED', 'offer_exists', 409]);
    // A text that says nothing lendbot knows is no refusal: the offer may exist (issue 24, item 1).
    const unknown = await offerFailure(409, 'Conflict.');
    expect([unknown.code, unknown.refusal]).toEqual(['AMBIGUOUS_OUTCOME', undefined]);
  });

  it('recognises a text added to the client settings, which turns an unknown outcome into a refusal', async () => {
    const before = await offerFailure(400, 'Duplicate offer.');
    expect([before.code, before.refusal]).toEqual(['AMBIGUOUS_OUTCOME', undefined]);
    await harness?.close();
    harness = undefined;
    const after = await offerFailure(400, 'Duplicate offer.', [{ pattern: 'duplicate offer', code: 'offer_exists' }]);
    expect([after.code, after.refusal]).toEqual(['RULE_REFUSED', 'offer_exists']);
  });
});
