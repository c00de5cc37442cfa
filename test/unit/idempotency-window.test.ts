// The Idempotency-Key window as DynamoDB will judge it: a retry is a replay while the record's expires_at is after the
// retry's second, the condition idempotencyClaim writes and every reader applies.
import { IDEMPOTENCY_WINDOW_SECONDS, decisionItem, idempotencyClaim } from '../../lambdas/stores/decision-store';
import { buildDecision } from '../../lambdas/domain/decision';
import { scoreSignal } from '../../lambdas/domain/engine';

const live = (claimMs: number, retryMs: number) =>
  idempotencyClaim('t', 'pk', {}, claimMs).Item.expires_at >
  idempotencyClaim('t', 'pk', {}, retryMs).ExpressionAttributeValues[':now'];

describe('the idempotency window', () => {
  it('replays a retry up to 24 hours after the first request, whatever its millisecond', () => {
    const day = IDEMPOTENCY_WINDOW_SECONDS * 1000;
    // A first request at .999 of its second kept its record 1 s short of 24 h until the thirty-third pass.
    for (const claimMs of [Date.UTC(2026, 11, 1, 1, 0, 0, 999), Date.UTC(2026, 11, 1, 1, 0, 0, 0), 1_764_550_800_123]) {
      for (const after of [0, 1, day - 500, day - 1])
        expect([after, live(claimMs, claimMs + after)]).toEqual([after, true]);
      expect(live(claimMs, claimMs + day + 1000)).toBe(false);
    }
  });

  it('never replays a decision GET already answers as expired, at the shortest retention (1 day)', () => {
    const claimMs = Date.UTC(2026, 11, 1, 1, 0, 0, 999);
    const owner = { partner_id: 'acme', key_id: 'key_1' };
    const made = new Date(claimMs).toISOString();
    const signal = { workspace_id: 'ws_1', source: 'task' as const, subject: 'Weekly report', received_at: made };
    const ids = { decision_id: 'dec_01', workspace_id: 'ws_1', source: 'task', received_at: made, created_at: made };
    const decision = buildDecision(ids, scoreSignal(signal, new Date(claimMs)));
    const decisionExpiry = decisionItem(decision, owner, claimMs, 1).expires_at;
    expect(decisionExpiry).toBeGreaterThanOrEqual(idempotencyClaim('t', 'pk', {}, claimMs).Item.expires_at);
  });
});
