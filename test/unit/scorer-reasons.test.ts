// The decision engine's reasons on hand-written signals (none taken from the evaluation data sets): their order, sum,
// catalogue and privacy, and the doc that lists every reason code.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BASE_SCORE, REASON_CODES } from '../../lambdas/domain/engine';
import { codes, score, type Input } from '../support/scorer-signals';
import { TABLE } from '../support/scorer-table';

describe('reasons', () => {
  const outage: Input = {
    source: 'email',
    subject: 'Production down',
    body: 'Our site is down for all customers. Please fix this ASAP!!',
    sender: 'ops@acme.example',
    metadata: { customer_tier: 'enterprise', tags: ['urgent'] },
  };

  it('are ordered by absolute weight, then by code', () => {
    const { reasons } = score(outage);
    for (let i = 1; i < reasons.length; i++) {
      const [a, b] = [reasons[i - 1], reasons[i]];
      expect(
        Math.abs(a.weight) > Math.abs(b.weight) || (Math.abs(a.weight) === Math.abs(b.weight) && a.code < b.code),
      ).toBe(true);
    }
  });

  it('sum to score - BASE_SCORE when nothing is clamped', () => {
    const a = score({ source: 'email', subject: 'Login', body: 'I cannot log in.', sender: 'x@corp.example' });
    expect(a.reasons.reduce((s, r) => s + r.weight, 0)).toBe(a.score - BASE_SCORE);
  });

  it('never hold more of the body than a matched keyword', () => {
    const secret = 'Tracking number ZX-99812 for Mrs. Example at 12 Sample Road';
    const a = score({
      source: 'email',
      subject: 'Outage',
      body: `${secret}. Our site is down.`,
      sender: 'a@b.example',
    });
    const text = JSON.stringify(a.reasons);
    expect(text).not.toContain('ZX-99812');
    expect(text).not.toContain('Sample Road');
    for (const r of a.reasons) expect(r.message.length).toBeLessThan(120);
  });

  it('use only catalogued codes, within the catalogued weight range', () => {
    for (const [, input] of TABLE) {
      for (const r of score(input).reasons) {
        const info = REASON_CODES[r.code as keyof typeof REASON_CODES];
        expect(info).toBeDefined();
        expect(r.weight).toBeGreaterThanOrEqual(info.min);
        expect(r.weight).toBeLessThanOrEqual(info.max);
        expect(Number.isInteger(r.weight)).toBe(true);
        expect(r.weight).not.toBe(0);
      }
    }
  });

  it('explain the enterprise tier the way the contract example does', () => {
    expect(score(outage).reasons).toContainEqual({
      code: 'VIP_CUSTOMER',
      message: 'metadata.customer_tier is enterprise',
      weight: 15,
    });
    expect(codes(outage)).toContain('OUTAGE_LANGUAGE');
  });
});

describe('docs/decision-engine.md', () => {
  it('documents every reason code', () => {
    const doc = readFileSync(path.resolve(__dirname, '../../docs/decision-engine.md'), 'utf8');
    for (const code of Object.keys(REASON_CODES)) expect(doc).toContain(`\`${code}\``);
  });
});
