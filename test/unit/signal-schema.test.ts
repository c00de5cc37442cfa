import { validateIdempotencyKey, validateSignal } from '../../lambdas/http/signal-schema';
import { parseRfc3339, toUtcString } from '../../lambdas/domain/timestamps';
import { BATCH_BODY } from '../../lambdas/analyze-batch/batch-envelope';
import { listEnvelope } from '../../lambdas/http/list-body';

const NOW = Date.parse('2026-11-21T10:00:00Z');
const valid = { workspace_id: 'ws_acme', source: 'email', subject: 'Hello', sender: 'ann@example.com' };

function detailsFor(input: unknown) {
  const result = validateSignal(input, NOW);
  if (result.ok) throw new Error('expected a validation failure');
  return result.details;
}

describe('signal validation', () => {
  it('names every unknown field and every problem, in the order the body holds them', () => {
    const body = { zz: 1, workspace_id: 'ws_acme', source: 'fax', subjekt: 'x', subject: 7, a: 2 };
    expect(detailsFor(body).map((d) => d.field)).toEqual(['zz', 'source', 'subjekt', 'subject', 'a']);
    expect(detailsFor({ b: 1, a: 2 })).toEqual([
      { field: 'b', message: 'is not a field of a signal' },
      { field: 'a', message: 'is not a field of a signal' },
      { field: 'workspace_id', message: 'is required' },
      { field: 'source', message: 'is required' },
      { field: 'body', message: 'subject or body must be non-blank, unless metadata is a non-empty object' },
    ]);
  });

  it('names the problems across fields beside the problems of single fields, in one answer', () => {
    const future = '2026-11-24T10:00:00Z';
    expect(detailsFor({ zz: 1, ...valid, sender: 'not-an-address' }).map((d) => d.field)).toEqual(['zz', 'sender']);
    expect(detailsFor({ workspace_id: 'ws_acme', source: 'task', subject: ' ', priority: 1 })).toEqual([
      { field: 'priority', message: 'is not a field of a signal' },
      { field: 'body', message: 'subject or body must be non-blank, unless metadata is a non-empty object' },
    ]);
    expect(detailsFor({ subject2: 'x', ...valid, received_at: future, metadata: [] })).toEqual([
      { field: 'subject2', message: 'is not a field of a signal' },
      { field: 'received_at', message: 'must not be more than 24 hours in the future' },
      { field: 'metadata', message: 'must be a JSON object' },
    ]);
    // A field jsonPath writes in brackets keeps its place too.
    expect(detailsFor({ ...valid, 'X Note': 1, received_at: future }).map((d) => d.field)).toEqual([
      '["X Note"]',
      'received_at',
    ]);
    // A check across fields waits for the fields it reads: a sender is no address to check on an unknown source.
    expect(detailsFor({ ...valid, source: 'fax', sender: 'nope' }).map((d) => d.field)).toEqual(['source']);
  });

  it('accepts a minimal signal and defaults received_at to the time of receipt, in UTC', () => {
    const result = validateSignal({ workspace_id: 'ws_1', source: 'task', body: 'Ship it' }, NOW);
    expect(result).toEqual({
      ok: true,
      signal: expect.objectContaining({
        workspace_id: 'ws_1',
        source: 'task',
        body: 'Ship it',
        received_at: '2026-11-21T10:00:00Z',
      }),
    });
  });

  it('stores received_at in UTC whatever offset it came with', () => {
    const result = validateSignal({ ...valid, received_at: '2026-11-21T11:30:00+02:00' }, NOW);
    expect(result.ok && result.signal.received_at).toBe('2026-11-21T09:30:00Z');
    const fractional = validateSignal({ ...valid, received_at: '2026-11-21T09:30:00.25Z' }, NOW);
    expect(fractional.ok && fractional.signal.received_at).toBe('2026-11-21T09:30:00.250Z');
  });

  it.each([
    [{ ...valid, workspace_id: undefined }, 'workspace_id'],
    [{ ...valid, workspace_id: '' }, 'workspace_id'],
    [{ ...valid, workspace_id: 'a'.repeat(129) }, 'workspace_id'],
    [{ ...valid, workspace_id: 'ws acme' }, 'workspace_id'],
    [{ ...valid, workspace_id: 42 }, 'workspace_id'],
    [{ ...valid, source: 'fax' }, 'source'],
    [{ ...valid, source: undefined }, 'source'],
    [{ ...valid, subject: 'x'.repeat(1001) }, 'subject'],
    [{ ...valid, body: 'x'.repeat(200_001) }, 'body'],
    [{ ...valid, sender: 'x'.repeat(321) }, 'sender'],
    [{ ...valid, sender: 'not an address' }, 'sender'],
    [{ ...valid, received_at: '2026-11-21' }, 'received_at'],
    [{ ...valid, received_at: '2026-11-21T10:00:00' }, 'received_at'],
    [{ ...valid, received_at: '2026-02-30T10:00:00Z' }, 'received_at'],
    [{ ...valid, received_at: '2026-11-23T10:00:01Z' }, 'received_at'],
    [{ ...valid, metadata: [] }, 'metadata'],
    [{ ...valid, metadata: 'x' }, 'metadata'],
    [{ ...valid, metadata: { a: 'x'.repeat(16 * 1024) } }, 'metadata'],
    [{ ...valid, metadata: { a: { b: { c: { d: { e: {} } } } } } }, 'metadata'],
    [{ ...valid, metadata: { a: [[[[[1]]]]] } }, 'metadata'],
    [{ ...valid, priority: 'high' }, 'priority'],
    [{ workspace_id: 'ws_1', source: 'email', subject: '  ', body: '\n' }, 'body'],
  ])('refuses %j naming the field', (input, field) => {
    expect(detailsFor(input).map((d) => d.field)).toContain(field);
  });

  it('accepts metadata nested exactly 5 levels and at the 16 KiB limit', () => {
    expect(validateSignal({ ...valid, metadata: { a: { b: { c: { d: { e: 1 } } } } } }, NOW).ok).toBe(true);
    const big = { a: 'x'.repeat(16 * 1024 - 8) }; // {"a":"..."} is 8 bytes of framing
    expect(Buffer.byteLength(JSON.stringify(big))).toBe(16 * 1024);
    expect(validateSignal({ ...valid, metadata: big }, NOW).ok).toBe(true);
  });

  it('allows a signal with only metadata when metadata is a non-empty object', () => {
    expect(validateSignal({ workspace_id: 'w', source: 'crm_event', metadata: { stage: 'won' } }, NOW).ok).toBe(true);
    expect(detailsFor({ workspace_id: 'w', source: 'crm_event', metadata: {} })[0].field).toBe('body');
  });

  it('checks the sender as an e-mail address only for e-mail signals', () => {
    expect(validateSignal({ ...valid, sender: 'Ann Example <ann@example.com>' }, NOW).ok).toBe(true);
    expect(validateSignal({ ...valid, source: 'task', sender: 'jira-bot' }, NOW).ok).toBe(true);
    expect(validateSignal({ ...valid, source: 'task', sender: '' }, NOW).ok).toBe(true);
  });

  it('refuses an empty or blank sender on an e-mail signal: it holds no address', () => {
    for (const sender of ['', '   ']) expect(detailsFor({ ...valid, source: 'email', sender })[0].field).toBe('sender');
  });

  it('refuses text with nothing to read: whitespace, NUL or zero-width characters only, unless metadata is given', () => {
    const bare = { workspace_id: 'ws_acme', source: 'support_message' };
    for (const text of [' \n\t', '\u0000\u0000', '\u200b\u200d\ufeff', '\u00ad \u0007']) {
      expect(detailsFor({ ...bare, subject: text, body: text })).toEqual([
        { field: 'body', message: 'subject or body must be non-blank, unless metadata is a non-empty object' },
      ]);
      expect(validateSignal({ ...bare, body: text, metadata: { tags: ['x'] } }, NOW).ok).toBe(true);
    }
    for (const body of ['\u200bok', 'ไม่', '\u0000?']) expect(validateSignal({ ...bare, body }, NOW).ok).toBe(true);
  });

  it('refuses a body that is not a JSON object', () => {
    for (const input of [null, [], 'x', 3]) expect(detailsFor(input)[0].field).toBe('(body)');
  });

  it('never echoes the client text in messages', () => {
    const details = detailsFor({ ...valid, subject: 'SECRET-'.repeat(200) });
    expect(JSON.stringify(details)).not.toContain('SECRET');
  });
});

describe('a missing field and a wrong one', () => {
  it('says "is required" of a field left out, and what it must be of one sent wrong', () => {
    const { source: _source, ...noSource } = valid;
    expect(detailsFor(noSource)).toEqual([{ field: 'source', message: 'is required' }]);
    expect(detailsFor({ ...valid, source: 3 })).toEqual([
      { field: 'source', message: 'must be one of email, task, crm_event, support_message, internal' },
    ]);
    expect(detailsFor({ ...valid, workspace_id: 5 })).toEqual([{ field: 'workspace_id', message: 'must be a string' }]);
    const batchDetails = (body: unknown) => {
      const checked = listEnvelope(BATCH_BODY, body);
      return checked.ok ? [] : checked.details;
    };
    expect(batchDetails({})).toEqual([{ field: 'signals', message: 'is required' }]);
    expect(batchDetails({ signals: [] })).toEqual([
      { field: 'signals', message: 'must be an array of 1 to 100 signals' },
    ]);
  });
});

describe('RFC 3339 timestamps', () => {
  it('parses offsets and Z, and refuses impossible dates', () => {
    expect(parseRfc3339('2026-11-21T09:30:00Z')).toBe(Date.parse('2026-11-21T09:30:00Z'));
    expect(parseRfc3339('2026-11-21t09:30:00z')).toBe(Date.parse('2026-11-21T09:30:00Z'));
    expect(parseRfc3339('2026-11-21T09:30:00-05:30')).toBe(Date.parse('2026-11-21T15:00:00Z'));
    for (const bad of [
      '2026-13-01T00:00:00Z',
      '2026-11-31T00:00:00Z',
      '2026-11-21T24:00:00Z',
      '2026-11-21T09:30Z',
      'yesterday',
    ]) {
      expect(parseRfc3339(bad)).toBeUndefined();
    }
    expect(toUtcString(Date.parse('2026-11-21T09:30:00Z'))).toBe('2026-11-21T09:30:00Z');
  });

  it('names a date that does not exist as such, and a malformed one as not RFC 3339', () => {
    const messageFor = (received_at: string) => detailsFor({ ...valid, received_at })[0].message;
    for (const gone of [
      '2025-02-29T12:00:00Z',
      '2026-11-21T24:00:00Z',
      '2026-11-21T23:59:60Z',
      '2026-11-21T09:30:00+24:00',
    ])
      expect(messageFor(gone)).toMatch(/^is not a date and time that exists/);
    for (const malformed of ['2026-11-21', '2026-11-21T09:30:00', '2026-11-21 09:30:00Z', 'yesterday'])
      expect(messageFor(malformed)).toBe('must be an RFC 3339 timestamp with Z or an offset');
  });
});

describe('Idempotency-Key header', () => {
  it('takes 1 to 255 printable ASCII characters', () => {
    expect(validateIdempotencyKey(undefined)).toBeUndefined();
    expect(validateIdempotencyKey('order-123')).toBeUndefined();
    expect(validateIdempotencyKey('x'.repeat(255))).toBeUndefined();
    expect(validateIdempotencyKey('')).toEqual({ field: 'Idempotency-Key', message: expect.any(String) });
    expect(validateIdempotencyKey('x'.repeat(256))).toBeDefined();
    expect(validateIdempotencyKey('clé')).toBeDefined();
    expect(validateIdempotencyKey('a\tb')).toBeDefined();
  });
});

describe('the future limit on received_at', () => {
  it('is relative to the time of receipt given, not the wall clock', () => {
    const receipt = Date.parse('2030-06-01T00:00:00Z');
    expect(validateSignal({ ...valid, received_at: '2030-06-01T23:59:59Z' }, receipt).ok).toBe(true);
    expect(validateSignal({ ...valid, received_at: '2030-06-02T00:00:01Z' }, receipt).ok).toBe(false);
  });
});

describe('the metadata size limit', () => {
  it('counts serialized bytes: 16 KiB of escaped control characters is over, 6,000 bytes of é is not', () => {
    expect(validateSignal({ ...valid, metadata: { a: '\u0001'.repeat(3_000) } }, NOW).ok).toBe(false);
    expect(validateSignal({ ...valid, metadata: { a: 'é'.repeat(3_000) } }, NOW).ok).toBe(true);
  });
});
