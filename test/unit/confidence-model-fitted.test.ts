// confidence-model.json's logistic is fitted on the engine's own decisions (bin/train-confidence.ts), so a change that
// moves them (the spam model refitted, a cut or a guard moved) leaves a file the trainer no longer reproduces: that
// went unnoticed once (docs/decision-engine.md, "Confidence: reproducing the model"). The file records the fingerprint
// of the decisions it was fitted on, or states the drift; any other change of the decisions fails here until the
// model is refitted (`npx tsx bin/train-confidence.ts`, then `npm run eval`) or the new drift is stated.
import { decisionFingerprint } from '../../bin/confidence-fingerprint';
import type { Provenance } from '../../bin/train-confidence';
import file from '../../lambdas/domain/engine/confidence-model.json';

const provenance = file as Provenance;

describe('the shipped confidence model', () => {
  it('was fitted on the decisions the engine makes today, or states how they drifted since', () => {
    expect(decisionFingerprint()).toBe(provenance.drift?.decisions ?? provenance.fitted_with.decisions);
  });

  it('states a drift only while the decisions differ from the ones it was fitted on', () => {
    expect(provenance.fitted_with.decisions).toMatch(/^[0-9a-f]{16}$/);
    if (provenance.drift) {
      expect(provenance.drift.decisions).not.toBe(provenance.fitted_with.decisions);
      expect(provenance.drift.why).not.toBe('');
    }
  });
});
