import { generateApiKey, hashApiKey } from '../../lambdas/domain/api-key';
import {
  AUDIT_EVENT_ID_PATTERN,
  type AuditEventInput,
  auditEventProblem,
  changedFields,
} from '../../lambdas/domain/audit';
import { auditEventPut } from '../../lambdas/stores/audit-log';

const base: AuditEventInput = {
  actor: 'local:ops',
  action: 'key.set_rate_limit',
  target: { partner_id: 'acme', key_id: 'key_01' },
  before: { rate_limit: null },
  after: { rate_limit: { limit: 10, window_seconds: 60 } },
};

describe('audit events', () => {
  it("builds one conditional Put on its month's shard of the audit index, kept 400 days", () => {
    const at = new Date('2026-11-26T06:00:00.000Z');
    const { Put } = auditEventPut('t', base, at);
    expect(Put.TableName).toBe('t');
    expect(Put.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(Put.Item).toMatchObject({
      actor: 'local:ops',
      action: 'key.set_rate_limit',
      at: at.toISOString(),
    });
    // The index partition: the month of `at` and a shard from the id's random part (docs/operations.md).
    expect(Put.Item.audit_log).toMatch(/^2026-11#[0-7]$/);
    expect(Put.Item.event_id).toMatch(AUDIT_EVENT_ID_PATTERN);
    expect(Put.Item.pk).toBe(`audit#${String(Put.Item.event_id)}`);
    expect(Put.Item.expires_at).toBe(at.getTime() / 1000 + 400 * 86_400);
  });

  it('refuses keys, key hashes and text', () => {
    const key = generateApiKey('live');
    expect(auditEventProblem({ ...base, after: { key } })).toMatch(/no key/);
    expect(auditEventProblem({ ...base, after: { note: `was ${key}` } })).toMatch(/API key/);
    expect(auditEventProblem({ ...base, before: { key_hash: hashApiKey(key) } })).toMatch(/no key/);
    expect(auditEventProblem({ ...base, after: { body: 'hello' } })).toMatch(/text/);
    expect(auditEventProblem({ ...base, after: { nested: [{ x: key }] } })).toMatch(/API key/);
    expect(() => auditEventPut('t', { ...base, after: { text: 'x' } }, new Date())).toThrow(/text/);
  });

  it('accepts ids and data that only look odd', () => {
    expect(auditEventProblem(base)).toBeUndefined();
    // A workspace id may be 64 hex digits, a routing entry may name a category "body".
    expect(
      auditEventProblem({
        ...base,
        action: 'policy.put',
        target: { workspace_id: 'a'.repeat(64) },
        after: { routing: { body: 'q' } },
      }),
    ).toBeUndefined();
    expect(auditEventProblem({ ...base, after: { new_key_id: 'key_01', expires_at: null } })).toBeUndefined();
    // An import records its counts, whatever they are called.
    expect(
      auditEventProblem({ ...base, action: 'model.import', after: { signals: 100, text: 0, learned: 98 } }),
    ).toBeUndefined();
    expect(auditEventProblem({ ...base, action: 'model.import', after: { signals: ['Subject: hi'] } })).toMatch(/text/);
  });

  it('refuses an unknown action or target field', () => {
    expect(auditEventProblem({ ...base, action: 'key.steal' as never })).toMatch(/unknown/);
    expect(auditEventProblem({ ...base, target: { secret: 'x' } as never })).toMatch(/not a target/);
  });

  it('keeps the changed fields only', () => {
    expect(changedFields({ a: 1, b: 2, c: null }, { a: 1, b: 3, d: 4 })).toEqual({
      before: { b: 2, d: null },
      after: { b: 3, d: 4 },
    });
  });

  it('takes a policy read back from the table, its maps in another key order, as unchanged', () => {
    // The same keyword as sent and as DynamoDB gives it back: only the version changed.
    const sent = { keywords: [{ phrase: 'VAT return', weight: 15 }], version: 1 };
    const stored = { keywords: [{ weight: 15, phrase: 'VAT return' }], version: 2 };
    expect(changedFields(sent, stored)).toEqual({ before: { version: 1 }, after: { version: 2 } });
  });
});
