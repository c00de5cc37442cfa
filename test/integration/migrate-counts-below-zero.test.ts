// `admin workspace migrate-learning` on version 3 counts that sum below 0: version 3 could lose a decision's add to a
// label and later count the decision out of it (issue 32's losses), so a label item plus the journal after its mark
// may hold a count of -1. An entry's counts are unsigned; written as they were, they read back as other counts, and
// every load and fold of the workspace failed. They move as none, as a load counts them.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { learningTableOf } from '../../lambdas/contract/settings';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import { encodeSketch } from '../../lambdas/domain/learning/sketch';
import { LearningFolder } from '../../lambdas/stores/learning-fold';
import { migrateLearning } from '../../lib/admin/migrate-learning';
import { serviceForFile, testSettings } from '../support/local-api';

const world = serviceForFile('migneg');

it('moves a count that version 3 summed below 0 as none, and the workspace loads and folds', async () => {
  const { tables, service } = world;
  const ws = 'ws_below_zero';
  const put = (Item: Record<string, unknown>) =>
    tables.client.send(new PutCommand({ TableName: tables.names.decisions, Item }));
  await put({
    pk: `${ITEM_PREFIX.workspaceModel}${ws}`,
    sketch_key: '0123456789abcdef',
    labels: new Set(['category:refund', 'category:billing']),
    version: 3,
  });
  await put({ pk: `${ITEM_PREFIX.workspaceLabel}${ws}#category:refund`, docs: 2, total: 2, t1: 2, lf: 0 });
  await put({ pk: `${ITEM_PREFIX.workspaceLabel}${ws}#category:billing`, docs: 1, total: 1, t3: 1, lf: 0 });
  await put({ pk: `${ITEM_PREFIX.workspaceHead}${ws}`, folded: 0, seq: 1 });
  // The journal after the labels' marks: a decision (text buckets 1 and 5, sender 7, domain 9) moved out of refund,
  // whose add of it was lost: refund's bucket 5, sender 7 and domain 9 sum to -1.
  await put({
    pk: `${ITEM_PREFIX.workspaceJournal}${ws}#g0#1`,
    sketch: encodeSketch({ t: [1, 5], s: 7, d: 9 }),
    ch: ['-category:refund'],
  });

  const learning = learningTableOf(testSettings(tables));
  const report = await migrateLearning(tables.client, { decisions: tables.names.decisions, learning });
  expect(report).toMatchObject({ migrated: 1, failed: [] });
  const held = async () =>
    Object.fromEntries(
      (await service.dependencies.workspaceStore.loadState(ws)).model.labels.map((l) => [
        l.label,
        { docs: l.docs, text: [...l.text], senders: [...l.senders], domains: [...l.domains] },
      ]),
    );
  const expected = {
    refund: { docs: 1, text: [[1, 1]], senders: [], domains: [] },
    billing: { docs: 1, text: [[3, 1]], senders: [], domains: [] },
  };
  expect(await held()).toEqual(expected);
  await new LearningFolder(tables.client, learning).fold(ws, Date.now() + 60_000);
  expect(await held()).toEqual(expected);
});
