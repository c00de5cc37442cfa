// The reason codes' traits (lambdas/domain/engine/reason-codes.ts) are the one place the engine keeps its code lists:
// the tone, the serious problems of invariant 4, the bulk evidence of invariant 5, a writer's own problem and the
// mailing markers. A code added with a trait is read by every phase; a misspelt trait word fails at load.
import { codesWhere, REASON_CODES } from '../../lambdas/domain/engine/reason-codes';
import { sentimentOf } from '../../lambdas/domain/engine/sentiment';
import { isSeriousReason } from '../../lambdas/domain/engine/invariants';

const sorted = (set: ReadonlySet<string>) => [...set].sort();

describe('reason code traits', () => {
  it('name the serious problems of invariant 4 and the bulk evidence of invariant 5', () => {
    expect(sorted(codesWhere((i) => i.serious === true))).toEqual(
      [
        'CRITICAL_CONDITION',
        'LEGAL_THREAT',
        'METRIC_CRITICAL',
        'OUTAGE_LANGUAGE',
        'SECURITY_LANGUAGE',
        'SEVERE_DEFECT',
        'SEVERITY_CRITICAL',
      ].sort(),
    );
    expect(sorted(codesWhere((i) => i.bulk === true))).toEqual(
      ['BULK_OUTWEIGHS_ALARM', 'BULK_SENDER', 'NEWSLETTER_LANGUAGE', 'SPAM_LANGUAGE', 'SPAM_MODEL'].sort(),
    );
  });

  it('give every phase the same reading of a code', () => {
    expect(isSeriousReason({ code: 'OUTAGE_LANGUAGE', weight: 30 })).toBe(true);
    expect(isSeriousReason({ code: 'OUTAGE_LANGUAGE', weight: 10 })).toBe(false);
    expect(isSeriousReason({ code: 'NOT_A_CODE', weight: 30 })).toBe(false);
    expect(sentimentOf([{ code: 'FRUSTRATION', weight: 5, message: '' }])).toBe('negative');
    expect(sentimentOf([{ code: 'GRATITUDE_CLOSURE', weight: -20, message: '' }])).toBe('positive');
    expect(
      sentimentOf([
        { code: 'FRUSTRATION', weight: 5, message: '' },
        { code: 'SPAM_MODEL', weight: -60, message: '' },
      ]),
    ).toBe('neutral');
  });

  it('never call machine or bulk text a writer', () => {
    for (const info of Object.values(REASON_CODES)) if (info.tone === 'none') expect(info.writer ?? false).toBe(false);
  });
});
