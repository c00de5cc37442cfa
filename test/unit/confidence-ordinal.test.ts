// The ordinal model behind a ranked decision's confidence (lambdas/domain/engine/confidence.ts), fitted by
// bin/train-confidence.ts: on labels drawn from a known cumulative-logit model, the fit finds it again. Seeded.
import { fitOrdinal, type Row } from '../../bin/train-confidence';
import { mulberry32 } from '../../bin/seeded-random';
import { bandFits, labelChances, type OrdinalModel } from '../../lambdas/domain/engine/confidence';
import type { Reason } from '../../lambdas/domain/decision';

const TRUE: OrdinalModel = { rules: 2, model: 1, thresholds: [-1, 1] };

function draw(n: number, seed: number): Row[] {
  const random = mulberry32(seed);
  const rows: Row[] = [];
  for (let i = 0; i < n; i++) {
    const rules = Math.round(random() * 100 - 30);
    const model = Math.round(random() * 80 - 40);
    const reasons: Reason[] = [
      { code: 'WARNING_CONDITION', weight: rules === 0 ? 1 : rules, message: 'rule' },
      { code: 'SEVERITY_MODEL', weight: model === 0 ? 1 : model, message: 'model' },
    ];
    const chances = labelChances(TRUE, { rules: reasons[0].weight / 50, model: reasons[1].weight / 50 });
    let u = random();
    let level = 1;
    while (level < chances.length && u > chances[level - 1]) u -= chances[level++ - 1];
    rows.push({
      input: {
        source: 'internal',
        category: 'incident',
        archived: false,
        best: 20,
        second: 0,
        spamProbability: null,
        score: 50,
        reasons,
        words: 12,
      },
      y: 1,
      w: 1 / n,
      level,
    });
  }
  return rows;
}

describe('fitOrdinal', () => {
  const fitted = fitOrdinal(draw(3000, 22), 'internal');

  it('finds the weights and thresholds the labels were drawn from', () => {
    expect(fitted.rules).toBeGreaterThan(1.5);
    expect(fitted.rules).toBeLessThan(2.5);
    expect(fitted.model).toBeGreaterThan(0.6);
    expect(fitted.model).toBeLessThan(1.4);
    expect(fitted.thresholds[0]).toBeGreaterThan(-1.4);
    expect(fitted.thresholds[0]).toBeLessThan(-0.6);
    expect(fitted.thresholds[1]).toBeGreaterThan(0.6);
    expect(fitted.thresholds[1]).toBeLessThan(1.4);
  });

  it('gives an alert the chance that its label fits the band: low fits info only', () => {
    const quiet: Reason[] = [{ code: 'INFORMATIONAL_ALERT', weight: -10, message: 'info' }];
    const low = bandFits('internal', fitted, 10, quiet);
    expect(low).toBeCloseTo(labelChances(fitted, { rules: -0.2, model: 0 })[0], 9);
    // The same points in the medium band fit info and warning: more likely kept.
    expect(bandFits('internal', fitted, 40, quiet)).toBeGreaterThan(low);
  });
});
