// confidence-model.json's logistic is fitted on the engine's own decisions (bin/train-confidence.ts), so a change that
// moves them (the spam model refitted, a cut or a guard moved) leaves a file the trainer no longer reproduces: that
// went unnoticed once (docs/decision-engine-confidence.md, "Confidence: reproducing the model"). The file records the
// fingerprint of the decisions it was fitted on; any change of the decisions fails here until the model is refitted
// (`npx tsx bin/train-confidence.ts`, then `npm run eval`).
import { decisionFingerprint } from '../../bin/confidence-fingerprint';
import type { Provenance } from '../../bin/train-confidence';
import file from '../../lambdas/domain/engine/confidence-model.json';

const provenance = file as Provenance;

describe('the shipped confidence model', () => {
  it('was fitted on the decisions the engine makes today', () => {
    expect(provenance.fitted_with.decisions).toMatch(/^[0-9a-f]{16}$/);
    expect(decisionFingerprint()).toBe(provenance.fitted_with.decisions);
  });
});
