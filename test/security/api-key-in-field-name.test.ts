// No API key is ever stored (docs/partners.md, "Errors"): an error names an unknown field by its path, and a batch's
// and an import's idempotency records keep their item errors for replays. A security review sent a signal with a
// field named after the caller's own key: the key came back in the answer and sat in both records for 24 hours. A key
// in a field's name is written `<API key>` now.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { useApiWithKey } from '../support/local-api';
import { call } from '../support/http';

jest.setTimeout(120_000);

const t = useApiWithKey('key-in-field-name', ['ws_a']);

const storedText = async () => {
  const out: string[] = [];
  for (const table of [t.api.tables.names.decisions, t.api.tables.names.access]) {
    const scan = await t.api.tables.client.send(new ScanCommand({ TableName: table, ConsistentRead: true }));
    out.push(JSON.stringify(scan.Items));
  }
  return out.join('\n');
};

it("never repeats or stores an API key that names a field, in a batch's or an import's item errors", async () => {
  const signal = { workspace_id: 'ws_a', source: 'email', subject: 'Invoice overdue', [t.key]: 1 };
  const batch = await call(t.api.baseUrl, 'POST', '/signals/analyze-batch', {
    key: t.key,
    body: { signals: [signal] },
    headers: { 'idempotency-key': 'key-in-name-batch' },
  });
  expect(batch.status).toBe(200);
  expect(batch.json.data[0].error.details.map((d: { field: string }) => d.field)).toContain('signals[0]["<API key>"]');
  const imported = await call(t.api.baseUrl, 'POST', '/workspaces/ws_a/examples', {
    key: t.key,
    body: {
      examples: [{ signal: { source: 'email', subject: 'Customs hold' }, labels: { category: 'x' }, [t.key]: 1 }],
    },
    headers: { 'idempotency-key': 'key-in-name-import' },
  });
  expect(imported.status).toBe(200);
  expect(JSON.stringify(imported.json.data[0].error.details)).toContain('<API key>');
  for (const reply of [batch, imported]) expect(reply.text).not.toContain(t.key);
  expect(await storedText()).not.toContain(t.key.slice(0, 30));
});

it('does not repeat an API key pasted as a query parameter of the listing', async () => {
  const reply = await call(t.api.baseUrl, 'GET', `/decisions?workspace_id=ws_a&${t.key}=1`, { key: t.key });
  expect(reply.status).toBe(400);
  expect(reply.json.error.details).toEqual([{ field: '<API key>', message: 'is not a parameter of this operation' }]);
  expect(reply.text).not.toContain(t.key);
});
