import { describe, expect, it } from 'vitest';
import { captureLog } from './log-capture.js';

describe('the logger', () => {
  it('redacts keys, secrets, signatures, tokens and bank memo text wherever they appear', () => {
    const { lines, log: root } = captureLog();
    const log = root.child({ component: 'test' });
    log.info(
      {
        apiKey: 'key-123',
        secretKey: 'secret-456',
        token: 'eyJhbGciOi...',
        headers: { 'x-api-key': 'key-123', 'x-hmac': 'abcdef', authorization: 'Bearer t' },
        config: { webhookSecret: 'whsec', bearerToken: 'bt' },
        bankingData: { data_aggregation: { DepAcctTrns: { BankAcctTrnRec: [{ Memo: 'PAYROLL J DOE 123 MAIN ST', TrnID: 1 }] } } },
        transaction: { Memo: 'VENMO TO MOM' },
        loanRequestId: 17,
      },
      'something happened',
    );
    const text = JSON.stringify(lines);
    for (const secret of ['key-123', 'secret-456', 'eyJhbGciOi', 'abcdef', 'Bearer t', 'whsec', '"bt"', 'PAYROLL', 'VENMO']) {
      expect(text, secret).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({ component: 'test', loanRequestId: 17, msg: 'something happened', apiKey: '[redacted]' });
  });
});
