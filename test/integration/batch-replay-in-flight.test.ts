// A batch replayed while its first attempt may still be storing its decisions (docs/partners.md, "Analyzing in
// batches"): the first attempt claims its Idempotency-Key, then stores its decisions with unconditional batch writes.
// A replay that restored a missing decision then could have it overwritten by the first attempt's late write, with any
// feedback given on it. The use case and the store on DynamoDB Local, at times the test sets.
import { analyzeBatch } from '../../lambdas/application/analyze-batch';
import { idempotencyRequest } from '../../lambdas/application/analyze-signal';
import type { Decision } from '../../lambdas/domain/decision';
import { RECEIPT_SKEW_MS } from '../../lambdas/domain/timestamps';
import { validateSignal } from '../../lambdas/http/signal-schema';
import { DynamoDecisionBatchStore } from '../../lambdas/stores/decision-batch-store';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { testEndpoint } from '../support/dynamodb';
import { loseBatchDecisions } from '../support/batch-replay';
import { partnerWithKey, serviceForFile } from '../support/local-api';
import { AdminService } from '../../lib/admin';
import { DynamoAccessStore } from '../../lambdas/stores/access-store';

const world = serviceForFile('batchfly');
let principal: { outcome: 'allow'; partner_id: string; key_id: string; scopes: ['analyze'] };

beforeAll(async () => {
  const { tables } = world;
  const admin = new AdminService(new DynamoAccessStore(tables.client, tables.names.access, tables.names.decisions));
  const { keyId } = await partnerWithKey(admin, 'acme', ['ws_fly']);
  principal = { outcome: 'allow', partner_id: 'acme', key_id: keyId, scopes: ['analyze'] };
});

const signals = [
  { workspace_id: 'ws_fly', source: 'email', subject: 'Checkout is down', body: 'Customers cannot pay since 9:00.' },
  { workspace_id: 'ws_fly', source: 'email', subject: 'Newsletter', body: 'Our spring offers are here.' },
];

/** The batch as the route runs it, received at `nowMs`, under Idempotency-Key `key`. */
const send = (nowMs: number, key: string) => {
  const deps = world.service.dependencies;
  return analyzeBatch(
    signals,
    principal,
    {
      validateSignal: (raw, receivedAtMs) => validateSignal(raw, receivedAtMs),
      workspaceAccess: deps.workspaceAccess,
      workspaces: deps.workspaces,
      store: deps.decisionBatch,
    },
    { nowMs, idempotency: idempotencyRequest(key, { signals }) },
  );
};

const decisionsOf = (outcome: Awaited<ReturnType<typeof send>>): Decision[] =>
  'data' in outcome ? outcome.data.flatMap((item) => ('decision' in item ? [item.decision] : [])) : [];

it('restores nothing while the first attempt may still write, and restores it all once that attempt is over', async () => {
  const t0 = Date.now();
  const first = await send(t0, 'fly-1');
  const ids = decisionsOf(first).map((d) => d.decision_id);
  expect(ids).toHaveLength(2);
  // The first attempt stopped (or still writes) between claiming the key and storing its decisions.
  await loseBatchDecisions(world.tables, ids, { failed: false });
  expect(await send(t0 + RECEIPT_SKEW_MS - 1, 'fly-1')).toEqual({ kind: 'in_flight' });
  expect(await world.service.dependencies.decisionBatch.getMany(ids)).toEqual(new Map());
  // Received 30 s or more before: the gateway has ended that attempt, whatever it was doing.
  const replay = await send(t0 + RECEIPT_SKEW_MS, 'fly-1');
  expect(replay.kind).toBe('replayed');
  expect(decisionsOf(replay)).toEqual(decisionsOf(first));
});

it('answers a decision the first attempt stored after the replay read, as stored, and overwrites nothing', async () => {
  const { tables } = world;
  const store = new DynamoDecisionBatchStore(tables.client, tables.names.decisions, 90);
  const t0 = Date.now();
  const [decision] = decisionsOf(await send(t0, 'fly-2'));
  // What the first attempt stored, and a rebuild that differs from it (another container's policy, say).
  const rebuilt = { ...decision, score: decision.score === 50 ? 51 : 50 };
  const stored = await store.putNew([rebuilt], principal);
  expect(stored).toEqual(new Map([[decision.decision_id, decision]]));
  expect((await store.getMany([decision.decision_id])).get(decision.decision_id)).toEqual(decision);
});

it('marks the record when its own writes fail, so that a replay restores the decisions at once', async () => {
  const { tables } = world;
  const store = new DynamoDecisionBatchStore(tables.client, tables.names.decisions, 90);
  const t0 = Date.now();
  const [decision] = decisionsOf(await send(t0, 'fly-3'));
  const idempotency = idempotencyRequest('fly-4', { signals: ['x'] });
  // An item past DynamoDB's 400 KB (a sketch of 500,000 bytes): a real refusal of the batch write, after the claim.
  const other = { ...decision, decision_id: `${decision.decision_id.slice(0, -1)}Z` };
  await expect(
    store.saveBatch([other], principal, {
      items: [{ id: other.decision_id }],
      createdMs: t0,
      idempotency,
      extras: new Map([[other.decision_id, { sketch: new Uint8Array(500_000) }]]),
    }),
  ).rejects.toThrow(/size/i);
  const replay = await store.saveBatch([], principal, { items: [], createdMs: t0 + 1, idempotency });
  expect(replay).toMatchObject({ kind: 'replayed', failed: true, createdMs: t0 });
});

it('answers with its decisions when its key claim was stored but the answer lost, and the SDK sent the claim again', async () => {
  // A fault DynamoDB Local cannot cause: the claim is applied, then its answer is dropped as a timed-out socket drops
  // it, and the SDK's own retry sends the same PutItem again (the client's second attempt).
  const client = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 });
  let lose = true;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      if (lose && context.commandName === 'PutItemCommand') {
        lose = false;
        throw Object.assign(new Error('socket timed out'), { name: 'TimeoutError', $metadata: {} });
      }
      return out;
    },
    { step: 'deserialize', name: 'loseFirstPutAnswer' },
  );
  try {
    const store = new DynamoDecisionBatchStore(client, world.tables.names.decisions, 90);
    const t0 = Date.now();
    const first = await analyzeBatch(
      signals,
      principal,
      {
        validateSignal: (raw, receivedAtMs) => validateSignal(raw, receivedAtMs),
        workspaceAccess: world.service.dependencies.workspaceAccess,
        workspaces: world.service.dependencies.workspaces,
        store,
      },
      { nowMs: t0, idempotency: idempotencyRequest('fly-lost', { signals }) },
    );
    expect(lose).toBe(false);
    expect(first.kind).toBe('created');
    const ids = decisionsOf(first).map((d) => d.decision_id);
    expect(ids).toHaveLength(2);
    expect([...(await store.getMany(ids)).keys()].sort()).toEqual([...ids].sort());
    // And a retry by the partner replays them.
    const again = await send(t0 + 1, 'fly-lost');
    expect(again.kind).toBe('replayed');
    expect(decisionsOf(again)).toEqual(decisionsOf(first));
  } finally {
    client.destroy();
  }
});

it('marks its claim failed when the claim got no answer, so that a retry after the blip restores the batch at once', async () => {
  // A fault DynamoDB Local cannot cause on demand: during a database blip the claim's PutItem lands, but every answer
  // to it (the client's own retries meet the landed claim) is lost to a timeout, so the attempt gives up with a 503.
  const client = createDocumentClient({ endpoint: testEndpoint(), requestTimeoutMs: 4_000 });
  let blip = true;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!blip || context.commandName !== 'PutItemCommand') return next(args);
      await next(args).catch(() => undefined);
      throw Object.assign(new Error('socket timed out'), { name: 'TimeoutError', $metadata: {} });
    },
    { step: 'deserialize', name: 'loseEveryPutAnswer' },
  );
  try {
    const store = new DynamoDecisionBatchStore(client, world.tables.names.decisions, 90);
    const t0 = Date.now();
    const deps = world.service.dependencies;
    await expect(
      analyzeBatch(
        signals,
        principal,
        {
          validateSignal: (raw, receivedAtMs) => validateSignal(raw, receivedAtMs),
          workspaceAccess: deps.workspaceAccess,
          workspaces: deps.workspaces,
          store,
        },
        { nowMs: t0, idempotency: idempotencyRequest('fly-blip', { signals }) },
      ),
    ).rejects.toThrow('socket timed out');
    blip = false;
    // A second later, not 30: the first attempt stored nothing and never will.
    const retry = await send(t0 + 1_000, 'fly-blip');
    expect(retry.kind).toBe('replayed');
    const decisions = decisionsOf(retry);
    expect(decisions).toHaveLength(2);
    const stored = await deps.decisionBatch.getMany(decisions.map((d) => d.decision_id));
    expect([...stored.values()]).toEqual(expect.arrayContaining(decisions));
  } finally {
    client.destroy();
  }
});
