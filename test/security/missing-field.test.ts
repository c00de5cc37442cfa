// Issue 21, finding 11: a missing required field is reported as missing ("is required"), never as an unknown field
// (docs/partners.md, "Errors"), on every route with a body schema: analyze, each batch item, the policy's nested
// entries.
import { validateSignal } from '../../lambdas/http/signal-schema';
import { validatePolicy } from '../../lambdas/http/policy-schema';
import { validateFeedback } from '../../lambdas/http/feedback-schema';
import { useApiWithKey } from '../support/local-api';
import { call, expectError } from '../support/http';

jest.setTimeout(120_000);

const t = useApiWithKey('sec-missing', ['ws_a']);

describe('over HTTP', () => {
  it('analyze {"workspace_id":"ws_a","subject":"x"}: source is required', async () => {
    const body = { workspace_id: 'ws_a', subject: 'x' };
    const reply = await call(t.api.baseUrl, 'POST', '/signals/analyze', { key: t.key, body });
    expectError(reply, 400, 'VALIDATION_ERROR');
    expect(reply.json.error.details).toEqual([{ field: 'source', message: 'is required' }]);
  });

  it('analyze {"subjekt":"x"}: both required fields and any text are missing; an unknown field is still named as unknown', async () => {
    const reply = await call(t.api.baseUrl, 'POST', '/signals/analyze', { key: t.key, body: { subjekt: 'x' } });
    expectError(reply, 400, 'VALIDATION_ERROR');
    // The body's own fields in its order, then the missing ones (docs/partners.md, "Errors").
    expect(reply.json.error.details).toEqual([
      { field: 'subjekt', message: 'is not a field of a signal' },
      { field: 'workspace_id', message: 'is required' },
      { field: 'source', message: 'is required' },
      { field: 'body', message: 'subject or body must be non-blank, unless metadata is a non-empty object' },
    ]);
  });

  it('a batch item without its source: that item says source is required', async () => {
    const reply = await call(t.api.baseUrl, 'POST', '/signals/analyze-batch', {
      key: t.key,
      body: { signals: [{ workspace_id: 'ws_a', subject: 'x' }] },
    });
    expect(reply.status).toBe(200);
    expect(reply.json.data[0].error.details).toEqual([{ field: 'signals[0].source', message: 'is required' }]);
  });

  it('a policy keyword without its weight, a category without its name: each is required', async () => {
    const reply = await call(t.api.baseUrl, 'PUT', '/workspaces/ws_a/policy', {
      key: t.key,
      body: { keywords: [{ phrase: 'outage' }], categories: [{ queue: 'ops' }] },
    });
    expectError(reply, 400, 'VALIDATION_ERROR');
    expect(reply.json.error.details).toEqual(
      expect.arrayContaining([
        { field: 'keywords[0].weight', message: 'is required' },
        { field: 'categories[0].name', message: 'is required' },
      ]),
    );
  });
});

it('the schemas never report a missing field as unknown', () => {
  const messages = [
    ...(validateSignal({}, Date.now()) as { details: { message: string }[] }).details,
    ...(validatePolicy({ keywords: [{}] }) as { details: { message: string }[] }).details,
    ...(validateFeedback({ priorty: 'high' }) as { details: { message: string }[] }).details,
  ].map((d) => d.message);
  expect(messages).toContain('is required');
  expect(messages.filter((m) => m.startsWith('is not a field'))).toEqual(['is not a field of feedback']);
});
