// Imports that run side by side (docs/partners.md, "Importing your history, and forgetting it"). Two imports sent at
// once with one Idempotency-Key and different bodies: the one that loses the key answers 409 and changes nothing,
// not even the workspace's label places (600 per field). Its new labels used to be admitted before the key was
// claimed, and stayed. Two imports with their own keys that both add new labels to one field both land. The use case
// and its store on DynamoDB Local; the store is wrapped only to hold one import still while the other runs, the
// interleaving the race needs, which a real pair of requests hits only now and then. Last, a transaction that landed
// and is sent again (its answer lost): the import counts once.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { importExamples } from '../../lambdas/import-examples/import-examples';
import type { ModelWriteStore } from '../../lambdas/domain/learning/model-writes';
import { labelSetKey } from '../../lambdas/stores/label-registry';
import { serviceForFile } from '../support/local-api';
import { testEndpoint } from '../support/dynamodb';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { DynamoModelWriteStore } from '../../lambdas/stores/model-write-store';
import { DynamoWorkspaceStore } from '../../lambdas/stores/workspace-store';

const world = serviceForFile('importlabels');

const examplesOf = (category: string) => [
  {
    signal: { source: 'email', subject: `About ${category}`, body: `A message filed under ${category}.` },
    labels: { category },
  },
];

const store = () => world.service.dependencies.modelWrites;
const deps = (modelWrites: Pick<ModelWriteStore, 'applyImport' | 'planLabels' | 'getRecord'> = store()) => ({
  workspaces: world.service.dependencies.workspaces,
  store: modelWrites,
});

async function categories(workspace: string): Promise<string[]> {
  const { Item } = await world.tables.client.send(
    new GetCommand({
      TableName: world.tables.names.learning,
      Key: { ws: workspace, sk: labelSetKey(0, 'category') },
      ConsistentRead: true,
    }),
  );
  return [...((Item?.labels as Set<string> | undefined) ?? [])].sort();
}

it('takes no label place for an import that loses its Idempotency-Key to another body sent at the same time', async () => {
  const ws = 'ws_key_race';
  const pk = 'idem#acme#import-race';
  const other = { pk, requestHash: 'the other body' };
  let otherImport: ReturnType<typeof importExamples> | undefined;
  // This import reads "no record yet"; the other import, with the same key, lands before it goes on.
  const raced = {
    planLabels: store().planLabels.bind(store()),
    applyImport: store().applyImport.bind(store()),
    getRecord: async (key: string, nowMs: number) => {
      const record = await store().getRecord(key, nowMs);
      otherImport ??= importExamples(ws, examplesOf('outage_report'), deps(), { nowMs, idempotency: other });
      await otherImport;
      return record;
    },
  };
  const mine = await importExamples(ws, examplesOf('supplier_invoice'), deps(raced), {
    nowMs: Date.now(),
    idempotency: { pk, requestHash: 'this body' },
  });
  expect(mine).toEqual({ kind: 'conflict' });
  expect((await otherImport)?.kind).toBe('imported');
  expect(await categories(ws)).toEqual(['outage_report']);
});

it('lands two imports with their own keys that add new labels to one field at the same time', async () => {
  const ws = 'ws_label_race';
  let otherImport: ReturnType<typeof importExamples> | undefined;
  // This import reads the label set; the other adds its own label to the set before this one writes.
  const raced = {
    getRecord: store().getRecord.bind(store()),
    applyImport: store().applyImport.bind(store()),
    planLabels: async (...args: Parameters<ModelWriteStore['planLabels']>) => {
      const plan = await store().planLabels(...args);
      otherImport ??= importExamples(ws, examplesOf('outage_report'), deps(), {
        nowMs: Date.now(),
        idempotency: { pk: 'idem#acme#import-b', requestHash: 'b' },
      });
      await otherImport;
      return plan;
    },
  };
  const mine = await importExamples(ws, examplesOf('supplier_invoice'), deps(raced), {
    nowMs: Date.now(),
    idempotency: { pk: 'idem#acme#import-a', requestHash: 'a' },
  });
  expect(mine.kind).toBe('imported');
  expect((await otherImport)?.kind).toBe('imported');
  expect(await categories(ws)).toEqual(['outage_report', 'supplier_invoice']);
  const learned = await world.service.dependencies.workspaces.get(ws);
  expect(learned.state.model.labels.map((l) => l.label).sort()).toEqual(['outage_report', 'supplier_invoice']);
});

it('counts an import once when its transaction landed and is sent again, even as it takes the last label place', async () => {
  const ws = 'ws_sent_twice';
  // 599 of the field's 600 places taken: the import's new label takes the last one.
  await world.tables.client.send(
    new UpdateCommand({
      TableName: world.tables.names.learning,
      Key: { ws, sk: labelSetKey(0, 'category') },
      UpdateExpression: 'ADD labels :labels',
      ExpressionAttributeValues: { ':labels': new Set(Array.from({ length: 599 }, (_, i) => `old_${i}`)) },
    }),
  );
  // A fault no real request can be made to cause on cue: the transaction lands, its answer is lost, and it is sent
  // again (the SDK's retry on a dropped connection); the second answer is the one the store reads.
  const twice = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 });
  twice.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      await next(args);
      return next(args);
    },
    { step: 'initialize', name: 'sendTwice' },
  );
  try {
    const store = new DynamoModelWriteStore(twice, world.tables.names.decisions, world.tables.names.learning);
    const examples = Array.from({ length: 5 }, (_, i) => ({
      signal: { source: 'email', subject: `Parcel ${i}`, body: 'Held at customs.' },
      labels: { category: 'customs_hold' },
    }));
    const outcome = await importExamples(ws, examples, deps(store), { nowMs: Date.now() });
    expect(outcome.kind).toBe('imported');
    const loaded = await new DynamoWorkspaceStore(
      world.tables.client,
      world.tables.names.decisions,
      world.tables.names.learning,
    ).loadState(ws);
    expect(loaded.model.labels.find((l) => l.label === 'customs_hold')?.docs).toBe(5);
  } finally {
    twice.destroy();
  }
});
