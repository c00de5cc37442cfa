// The stored decision's compact format (lambdas/stores/decision-format.ts): what goes in comes out exactly, field
// order included, for every shape a decision can take; and a decision stored before version 4 (full names, its id
// inside) reads as it was stored.
import { DECISION_FIELDS, DECISION_V2_FIELDS, type Decision } from '../../lambdas/domain/decision';
import { decisionFrom, storedDecision } from '../../lambdas/stores/decision-format';
import { dynamoItemBytes } from '../../bin/bench/cost-model';

const DECISION: Required<Decision> = {
  decision_id: 'dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S',
  workspace_id: 'ws_test',
  priority: 'high',
  score: 75,
  recommended_action: 'respond_now',
  category: 'incident',
  queue: 'engineering',
  reasons: [
    { code: 'OUTAGE_LANGUAGE', message: 'mentions a production outage ("site is down")', weight: 45 },
    { code: 'NOT_URGENT', message: 'says it is not urgent', weight: -5 },
  ],
  source: 'email',
  received_at: '2026-03-02T09:00:00.123Z',
  created_at: '2026-03-02T10:00:00.000Z',
  model_version: 'rules-3',
  confidence: 0.84,
  language: 'en',
  sentiment: 'negative',
  respond_by: '2026-03-02T13:00:00.123Z',
  policy_version: 3,
};

/** What a read gets: the stored map and the item's own `decision_id`, as GetItem and both listing indexes give. */
const roundTrip = (decision: Decision) =>
  decisionFrom({ decision: storedDecision(decision), decision_id: decision.decision_id });

describe('a compact stored decision', () => {
  it('comes back exactly, in the order partners see', () => {
    const back = roundTrip(DECISION);
    expect(back).toEqual(DECISION);
    expect(Object.keys(back)).toEqual([...DECISION_FIELDS]);
    expect(back.reasons.map((r) => Object.keys(r))).toEqual([
      ['code', 'message', 'weight'],
      ['code', 'message', 'weight'],
    ]);
  });

  it('keeps every shape of time, and any label a workspace learned', () => {
    const odd: Decision = {
      ...DECISION,
      // Whole seconds as the signal schema prints them (no `.000`), and no deadline (archive).
      received_at: '2026-03-02T09:00:00Z',
      respond_by: null,
      category: 'Refund — 返金 "quoted"',
      queue: '',
      reasons: [],
      recommended_action: 'archive',
      policy_version: 0,
      confidence: 0,
      score: -12,
    };
    expect(roundTrip(odd)).toEqual(odd);
    const stored = storedDecision(odd);
    expect(stored.ra).toBe('2026-03-02T09:00:00Z');
    expect(stored.rb).toBeNull();
  });

  it('does not repeat the id, and keeps times as numbers: a third smaller than the full form', () => {
    const stored = storedDecision(DECISION);
    expect(stored).not.toHaveProperty('decision_id');
    expect(stored.ca).toBe(Date.parse(DECISION.created_at));
    expect(dynamoItemBytes({ decision: stored })).toBeLessThan(dynamoItemBytes({ decision: DECISION }) * 0.7);
  });
});

describe('a decision stored before version 4', () => {
  it('reads as it was stored, the id from inside the map', () => {
    // As version 3 wrote it: the decision itself under `decision` (reasons' keys in any order: a map's order is lost).
    const item = {
      decision: {
        ...DECISION,
        reasons: DECISION.reasons.map(({ weight, message, code }) => ({ weight, message, code })),
      },
      decision_id: DECISION.decision_id,
    };
    const back = decisionFrom(item);
    expect(back).toEqual(DECISION);
    expect(Object.keys(back)).toEqual([...DECISION_FIELDS]);
    expect(Object.keys(back.reasons[0])).toEqual(['code', 'message', 'weight']);
  });

  it('keeps a version 1 decision without the fields it was stored without', () => {
    const v1 = Object.fromEntries(
      Object.entries(DECISION).filter(([f]) => !(DECISION_V2_FIELDS as string[]).includes(f)),
    );
    // Stored before any listing index: no top-level `decision_id`.
    const back = decisionFrom({ decision: v1 });
    expect(back).toEqual(v1);
    for (const field of DECISION_V2_FIELDS) expect(back).not.toHaveProperty(field);
  });
});
