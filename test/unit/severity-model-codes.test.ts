// A reason code added to reason-codes.ts is read by the severity models as weight 0 until they are fitted again: this
// test is what points a change of the code table at severity-model.json (issue 34: no place a change must touch is
// left unflagged).
import { REASON_CODES } from '../../lambdas/domain/engine/reason-codes';
import type { SeverityModelFile } from '../../lambdas/domain/engine/severity-model';
import file from '../../lambdas/domain/engine/severity-model.json';

describe('the shipped severity models', () => {
  it('were fitted on the reason codes the engine has today (else: npx tsx bin/train-severity-model.ts)', () => {
    const trainedOn = (file as SeverityModelFile).reason_codes;
    const today = Object.keys(REASON_CODES).sort();
    expect({
      added: today.filter((c) => !trainedOn.includes(c)),
      removed: trainedOn.filter((c) => !today.includes(c)),
    }).toEqual({ added: [], removed: [] });
  });

  it('weigh only codes the engine knows', () => {
    const known = new Set(Object.keys(REASON_CODES));
    const weighted = Object.values((file as SeverityModelFile).models).flatMap((m) => Object.keys(m.codes));
    expect(weighted.map((c) => c.replace(/^-/, '')).filter((c) => !known.has(c))).toEqual([]);
  });
});
