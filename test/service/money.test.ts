import { describe, expect, it } from 'vitest';
import { amountToCents, dollarsToCents, formatCents, isDecimalText, parseCents } from '../../src/domain/index.js';

describe('money', () => {
  it('parses decimal text into integer cents', () => {
    expect(parseCents('1250.00')).toBe(125_000);
    expect(parseCents('535')).toBe(53_500);
    expect(parseCents('0.5')).toBe(50);
    expect(parseCents('-35.50')).toBe(-3550);
    expect(parseCents('+12.34')).toBe(1234);
    expect(parseCents(' 7.01 ')).toBe(701);
  });

  it('rounds half away from zero past the second place', () => {
    expect(parseCents('1.005')).toBe(101);
    expect(parseCents('1.004')).toBe(100);
    expect(parseCents('-1.005')).toBe(-101);
    expect(parseCents('0.0049')).toBe(0);
  });

  it('refuses anything that is not a plain decimal', () => {
    for (const bad of ['', 'abc', '1e5', '1,000.00', '12.', '.5', 'NaN', '--1']) {
      expect(() => parseCents(bad), bad).toThrow(RangeError);
      expect(isDecimalText(bad), bad).toBe(false);
    }
  });

  it('tells decimal texts as the regular expression does, on the fast path and off it', () => {
    const pattern = /^([+-])?(\d+)(?:\.(\d+))?$/;
    const texts = [
      '0',
      '12',
      '-3.50',
      '1250.00',
      '0.001',
      '+5',
      ' 7.5 ',
      '7.5\n',
      '1234567890123.45',
      '-',
      '-.5',
      '1.2.3',
      '1 000',
      '١٢',
      '12a',
      '0x10',
      'Infinity',
    ];
    for (const text of texts) expect(isDecimalText(text), JSON.stringify(text)).toBe(pattern.test(text.trim()));
  });

  it('converts float dollars without binary drift', () => {
    expect(dollarsToCents(12.3)).toBe(1230);
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    expect(dollarsToCents(-99.99)).toBe(-9999);
    expect(() => dollarsToCents(Number.NaN)).toThrow('not a finite amount: NaN');
    expect(amountToCents('10.10')).toBe(1010);
    expect(amountToCents(10.1)).toBe(1010);
  });

  it('formats cents with two places and a sign', () => {
    expect(formatCents(125_000)).toBe('1250.00');
    expect(formatCents(-5)).toBe('-0.05');
    expect(formatCents(0)).toBe('0.00');
    expect(() => formatCents(1.5)).toThrow('cents must be an integer: 1.5');
  });

  it('round-trips every cent value it formats', () => {
    for (let cents = -1000; cents <= 1000; cents += 7) expect(parseCents(formatCents(cents))).toBe(cents);
  });
});
