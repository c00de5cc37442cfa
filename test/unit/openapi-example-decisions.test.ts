// docs/openapi.yaml's example decisions against the engine: wherever the document shows the signal a decision was made
// for, the decision is what the engine answers for it at that moment (an example once said `und` and `rules-2` where
// the engine answered `en` and `rules-3`).
import { buildDecision } from '../../lambdas/domain/decision';
import { scoreSignal } from '../../lambdas/domain/engine';
import { validateSignal } from '../../lambdas/http/signal-schema';
import { dereferenceOpenApi, loadOpenApiSource } from '../support/openapi';

const doc = dereferenceOpenApi(loadOpenApiSource());

describe('example decisions and their signals', () => {
  // Every example signal of the document: the request bodies', the named examples' and a batch's items.
  const signals: any[] = [
    ...Object.values<any>(doc.components.requestBodies.Signal.content['application/json'].examples).map((e) => e.value),
    ...Object.values<any>(doc.components.examples).flatMap((e) =>
      Array.isArray(e.value?.signals)
        ? e.value.signals
        : 'source' in (e.value ?? {}) && !('decision_id' in e.value)
          ? [e.value]
          : [],
    ),
  ];
  // Every example decision: alone, in a list page, in a batch's answer (named by its example).
  const decisions: [string, any][] = Object.entries<any>(doc.components.examples).flatMap(([name, e]) =>
    'decision_id' in e.value
      ? [[name, e.value]]
      : (e.value.data ?? [])
          .map((item: any) => item.decision ?? item)
          .filter((d: any) => d?.decision_id)
          .map((d: any) => [name, d]),
  );
  /** Decisions whose signal the document does not show. */
  const WITHOUT_SIGNAL = new Set(['DecisionNewsletter']);
  const ENGINE_FIELDS = [
    'priority',
    'score',
    'recommended_action',
    'category',
    'queue',
    'reasons',
    'model_version',
    'confidence',
    'language',
    'sentiment',
    'respond_by',
  ];
  const engineFields = (d: any) => Object.fromEntries(ENGINE_FIELDS.map((f) => [f, d[f]]));

  it('shows what the engine answers for its example signal, wherever the document has one', () => {
    let paired = 0;
    for (const [name, decision] of decisions) {
      if (WITHOUT_SIGNAL.has(name)) continue;
      const nowMs = Date.parse(decision.created_at);
      const answers = signals
        .filter((s) => s.workspace_id === decision.workspace_id && s.source === decision.source)
        .map((s) => {
          const v = validateSignal({ received_at: decision.received_at, ...s }, nowMs);
          if (!v.ok) return undefined;
          const ids = { ...decision, received_at: v.signal.received_at };
          return engineFields(buildDecision(ids, scoreSignal(v.signal, new Date(nowMs))));
        });
      paired++;
      expect({ name, answers }).toEqual({ name, answers: expect.arrayContaining([engineFields(decision)]) });
    }
    expect(paired).toBeGreaterThanOrEqual(4);
  });
});
