// A batch decides every item of a workspace against one state of it (docs/operations.md, "Worst-case work per
// request": a grant check and a workspace load per distinct workspace). It loaded the workspace once per item: with
// the workspace cache off, or just emptied by a policy change, a batch of one workspace's items read its policy and
// learned model again for each (a batch of 50 in a workspace of 3,000 examples outlasted the function's timeout), and
// a policy change during the batch gave its items different policy versions. The use case on DynamoDB Local, its
// workspace loads and grant checks counted.
import { analyzeBatch } from '../../lambdas/application/analyze-batch';
import { validateSignal } from '../../lambdas/http/signal-schema';
import { AdminService } from '../../lib/admin';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';
import { partnerWithKey, serviceForFile } from '../support/local-api';

const world = serviceForFile('batch-once');
let principal: { outcome: 'allow'; partner_id: string; key_id: string; scopes: ['analyze'] };

beforeAll(async () => {
  const { tables } = world;
  const admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions));
  const { keyId } = await partnerWithKey(admin, 'acme', ['ws_one', 'ws_two']);
  principal = { outcome: 'allow', partner_id: 'acme', key_id: keyId, scopes: ['analyze'] };
});

it('checks and loads each distinct workspace of a batch once, and decides its items against that one state', async () => {
  const deps = world.service.dependencies;
  const loads: string[] = [];
  const checks: string[] = [];
  const signals = Array.from({ length: 40 }, (_, i) => ({
    workspace_id: i % 4 === 3 ? 'ws_two' : 'ws_one',
    source: 'email',
    subject: `Invoice ${i} is overdue`,
  }));
  const outcome = await analyzeBatch(
    signals,
    principal,
    {
      validateSignal: (raw, receivedAtMs) => validateSignal(raw, receivedAtMs),
      workspaceAccess: {
        allows: (who, id) => {
          checks.push(id);
          return deps.workspaceAccess.allows(who, id);
        },
      },
      // A cache that keeps nothing, as WORKSPACE_CACHE_TTL_SECONDS=0 does: every get is a load.
      workspaces: {
        get: (id) => {
          loads.push(id);
          return deps.workspaces.get(id);
        },
      },
      store: deps.decisionBatch,
    },
    { nowMs: Date.now() },
  );
  expect(outcome.kind).toBe('created');
  expect('data' in outcome && outcome.data.every((item) => 'decision' in item)).toBe(true);
  expect(loads.sort()).toEqual(['ws_one', 'ws_two']);
  expect(checks.sort()).toEqual(['ws_one', 'ws_two']);
});

it("decides one workspace's items before loading the next, and answers in input order with rising ids", async () => {
  // A batch naming 100 workspaces that learned a lot held all 100 models at once (a reviewer's local server reached
  // 1.2 GB); grouped, it holds one beside the bounded cache.
  const deps = world.service.dependencies;
  const events: string[] = [];
  const signals = Array.from({ length: 6 }, (_, i) => ({
    workspace_id: i % 2 ? 'ws_two' : 'ws_one',
    source: 'email',
    subject: `Invoice ${i} is overdue`,
  }));
  const outcome = await analyzeBatch(
    signals,
    principal,
    {
      validateSignal: (raw, receivedAtMs, index) => {
        events.push(`decide ${index}`);
        return validateSignal(raw, receivedAtMs);
      },
      workspaceAccess: deps.workspaceAccess,
      workspaces: {
        get: (id) => {
          events.push(`load ${id}`);
          return deps.workspaces.get(id);
        },
      },
      store: deps.decisionBatch,
    },
    { nowMs: Date.now() },
  );
  expect(events).toEqual([
    'decide 0',
    'load ws_one',
    'decide 2',
    'decide 4',
    'decide 1',
    'load ws_two',
    'decide 3',
    'decide 5',
  ]);
  if (outcome.kind !== 'created') throw new Error(outcome.kind);
  expect(outcome.data.map((item) => item.index)).toEqual([0, 1, 2, 3, 4, 5]);
  const ids = outcome.data.map((item) => ('decision' in item ? item.decision.decision_id : ''));
  expect([...ids].sort()).toEqual(ids);
  expect(outcome.data.map((item) => ('decision' in item ? item.decision.workspace_id : ''))).toEqual(
    signals.map((s) => s.workspace_id),
  );
});
