// An import resent with its Idempotency-Key as the key's window ends (docs/partners.md, "Importing your history, and
// forgetting it"): the record is live or not at the request's one now, for the read before the labels are admitted
// and for the claim alike. The read took the wall clock, and the claim the moment the request was received, so a
// resend received just before the end and read just after it met a record the read called gone and the claim live:
// 409 IDEMPOTENCY_CONFLICT for the same body. The use case and its store on DynamoDB Local.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { importExamples } from '../../lambdas/import-examples/import-examples';
import { serviceForFile } from '../support/local-api';

const world = serviceForFile('importwindow');
const examples = [
  {
    signal: { source: 'email', subject: 'Invoice overdue', body: 'Please pay by Friday.' },
    labels: { priority: 'high' },
  },
];
const deps = () => ({
  workspaces: world.service.dependencies.workspaces,
  store: world.service.dependencies.modelWrites,
});

it('replays a resend received before its key expired, however late it is read', async () => {
  const pk = 'idem#acme#import-window';
  const idempotency = { pk, requestHash: 'the body of the import' };
  const first = await importExamples('ws_window', examples, deps(), { nowMs: Date.now(), idempotency });
  expect(first.kind).toBe('imported');
  // The record's window ended five seconds ago by the wall clock, and the resend was received a second before that.
  const expiresAt = Math.floor(Date.now() / 1000) - 5;
  await world.tables.client.send(
    new UpdateCommand({
      TableName: world.tables.names.decisions,
      Key: { pk },
      UpdateExpression: 'SET expires_at = :at',
      ExpressionAttributeValues: { ':at': expiresAt },
    }),
  );
  const resend = await importExamples('ws_window', examples, deps(), { nowMs: (expiresAt - 1) * 1000, idempotency });
  expect(resend).toEqual({ kind: 'replayed', answer: (first as { answer: unknown }).answer });
});
