// `admin workspace migrate-learning` on a version 3 label item holding a count of sender bucket 20. Version 3 named
// each count `s<bucket base 36>`, so that one is the attribute `sk` of its `wslabel#` item (keyed by `pk`, where `sk`
// is no key): the migration must move it like any other count, not let the learning table's sort key overwrite it.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { learningTableOf } from '../../lambdas/contract/settings';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import { migrateLearning } from '../../lib/admin/migrate-learning';
import { serviceForFile, testSettings } from '../support/local-api';

const world = serviceForFile('migsk');

it("moves version 3's count of sender bucket 20, stored as `sk`, with the label's other counts", async () => {
  const { tables, service } = world;
  const ws = 'ws_sender_20';
  const put = (Item: Record<string, unknown>) =>
    tables.client.send(new PutCommand({ TableName: tables.names.decisions, Item }));
  await put({
    pk: `${ITEM_PREFIX.workspaceModel}${ws}`,
    sketch_key: '0123456789abcdef',
    labels: new Set(['category:refund']),
    version: 2,
  });
  // As version 3's fold wrote it: `s${(20).toString(36)}` is `sk`.
  expect(`s${(20).toString(36)}`).toBe('sk');
  await put({
    pk: `${ITEM_PREFIX.workspaceLabel}${ws}#category:refund`,
    docs: 2,
    total: 3,
    t5: 3,
    s1: 1,
    sk: 1,
    lf: 0,
  });

  const report = await migrateLearning(tables.client, {
    decisions: tables.names.decisions,
    learning: learningTableOf(testSettings(tables)),
  });
  expect(report.failed).toEqual([]);
  const [refund] = (await service.dependencies.workspaceStore.loadState(ws)).model.labels;
  expect(refund.docs).toBe(2);
  expect(new Map(refund.senders)).toEqual(
    new Map([
      [1, 1],
      [20, 1],
    ]),
  );
});
