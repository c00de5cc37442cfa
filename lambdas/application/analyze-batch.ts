// The batch use case: each signal authorized and validated on its own, decided by the same function as single
// analyze, all decisions stored with a few batch writes; with an Idempotency-Key, the whole batch answers once.
// The route passes the signal's validator in (a valibot schema of the HTTP edge), so this layer stays free of it.
import { DEFAULT_MESSAGE, type ErrorDetail, boundedItemError } from '../contract/errors';
import type { Principal } from '../domain/principal';
import type { Decision } from '../domain/decision';
import type {
  BatchItemRecord,
  DecisionBatchStore,
  DecisionExtras,
  DecisionOwner,
  IdempotencyRequest,
} from '../domain/ports';
import type { WorkspaceAccess } from './workspace-access';
import { replayAllowed } from './replay-access';
import type { WorkspaceCache } from '../domain/learning/workspace-cache';
import { decideForStore } from './analyze-signal';
import { newDecisionIds } from '../domain/ids';
import type { Signal } from '../domain/signal';
import { RECEIPT_SKEW_MS } from '../domain/timestamps';

type BatchResultItem =
  | { index: number; decision: Decision }
  | { index: number; error: { code: string; message: string; details?: { field: string; message: string }[] } };

type BatchOutcome =
  | { kind: 'created'; data: BatchResultItem[]; stored: number }
  | { kind: 'replayed'; data: BatchResultItem[] }
  /** A replay of a batch whose first attempt may still be storing decisions the replay does not find yet. */
  | { kind: 'in_flight' }
  | { kind: 'conflict' };

type ItemVerdict =
  { decision: Decision; extra?: DecisionExtras } | { error: Extract<BatchResultItem, { error: unknown }>['error'] };

const notAllowed = () => ({ code: 'WORKSPACE_NOT_ALLOWED', message: DEFAULT_MESSAGE.WORKSPACE_NOT_ALLOWED });

/** A raw item checked as single analyze checks its body: the signal, or every problem with it (the item's `index`
 * places them in the body). */
type SignalValidator = (
  raw: unknown,
  receivedAtMs: number,
  index: number,
) => { ok: true; signal: Signal } | { ok: false; details: ErrorDetail[] };

/** What judging a batch's signals needs: the validator, the grant check and, when given, each workspace's policy and model. */
interface JudgeDeps {
  validateSignal: SignalValidator;
  workspaceAccess: WorkspaceAccess;
  workspaces?: Pick<WorkspaceCache, 'get'>;
}

type StoredItemError = Extract<BatchItemRecord, { error: unknown }>['error'];

/**
 * A stored item error with its keys in the order the first answer wrote them: DynamoDB keeps no order of a map's keys,
 * and a replay answers what the first request did, byte for byte.
 */
function inAnswerOrder(error: StoredItemError): StoredItemError {
  const { code, message, details } = error;
  return details
    ? { code, message, details: details.map((d) => ({ field: d.field, message: d.message })) }
    : { code, message };
}

/** The workspace an item names, as it sent it. */
const workspaceNamed = (raw: unknown): unknown =>
  raw !== null && typeof raw === 'object' ? (raw as { workspace_id?: unknown }).workspace_id : undefined;

/** Whether the item names, as a string, a workspace this caller may not use: its answer is WORKSPACE_NOT_ALLOWED. */
async function withheldFrom(principal: Principal, raw: unknown, access: WorkspaceAccess): Promise<boolean> {
  const workspaceId = workspaceNamed(raw);
  return typeof workspaceId === 'string' && !(await access.allows(principal, workspaceId));
}

/** Item indexes grouped by the workspace they name, groups in order of first appearance (an item naming none alone). */
function byWorkspace(signals: unknown[]): number[][] {
  const groups = new Map<unknown, number[]>();
  for (const [index, raw] of signals.entries()) {
    const named = workspaceNamed(raw);
    const key = typeof named === 'string' ? named : index;
    const group = groups.get(key);
    if (group) group.push(index);
    else groups.set(key, [index]);
  }
  return [...groups.values()];
}

/** One signal, as analyze would judge it: the workspace grant first, then validation, then the decision. */
async function judge(
  raw: unknown,
  index: number,
  principal: Principal,
  deps: JudgeDeps,
  nowMs: number,
  id: string,
): Promise<ItemVerdict> {
  if (await withheldFrom(principal, raw, deps.workspaceAccess)) return { error: notAllowed() };
  const validation = deps.validateSignal(raw, nowMs, index);
  if (!validation.ok) {
    return { error: boundedItemError('VALIDATION_ERROR', 'This signal is not valid.', validation.details) };
  }
  // The workspace's policy and learned model, as single analyze applies them (cached per container).
  const workspace = deps.workspaces ? await deps.workspaces.get(validation.signal.workspace_id) : undefined;
  return decideForStore(validation.signal, id, nowMs, workspace);
}

/** Once per key in `seen`: the first call's promise, shared by the later ones. */
function once<T>(seen: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let pending = seen.get(key);
  if (!pending) seen.set(key, (pending = load()));
  return pending;
}

/**
 * The batch's view of grants and workspaces: each distinct workspace checked and loaded once (docs/operations.md), so
 * every item of a workspace is decided against one policy and one learned model, and a batch of 100 items of one
 * workspace costs one load, not 100, when the workspace cache is off or a policy change just emptied it.
 */
function oncePerWorkspace(deps: JudgeDeps): JudgeDeps & { release: (workspaceId: unknown) => void } {
  const allowed = new Map<string, Promise<boolean>>();
  const loaded = new Map<string, ReturnType<Pick<WorkspaceCache, 'get'>['get']>>();
  const workspaces = deps.workspaces;
  return {
    validateSignal: deps.validateSignal,
    // One caller a batch: its principal's answer for a workspace is the answer for every item naming it.
    workspaceAccess: { allows: (who, id) => once(allowed, id, () => deps.workspaceAccess.allows(who, id)) },
    workspaces: workspaces && { get: (id) => once(loaded, id, () => workspaces.get(id)) },
    // Once its items are decided, the batch holds no workspace the cache let go: one at a time beside the cache.
    release: (workspaceId) => typeof workspaceId === 'string' && loaded.delete(workspaceId),
  };
}

export async function analyzeBatch(
  signals: unknown[],
  principal: Principal & DecisionOwner,
  batchDeps: JudgeDeps & { store: DecisionBatchStore },
  options: { nowMs: number; idempotency?: IdempotencyRequest },
): Promise<BatchOutcome> {
  const deps = { ...oncePerWorkspace(batchDeps), store: batchDeps.store };
  const verdicts: ItemVerdict[] = Array.from({ length: signals.length });
  // In input order among themselves: listed newest first, a batch reads as its signals sent one after another.
  const newIds = newDecisionIds(options.nowMs, signals.length);
  // A workspace's items one after another, then the next workspace: a batch naming 100 workspaces that learned a lot
  // holds one of their models at a time beside the bounded cache, not all 100 (docs/operations.md).
  for (const group of byWorkspace(signals)) {
    for (const index of group)
      verdicts[index] = await judge(signals[index], index, principal, deps, options.nowMs, newIds[index]);
    deps.release(workspaceNamed(signals[group[0]]));
  }
  const decisions = verdicts.flatMap((v) => ('decision' in v ? [v.decision] : []));
  // Every item refused: nothing to store, so the answer is given as analyze gives a refusal, without the
  // Idempotency-Key's record. A key without a workspace's grant, reusing another key's Idempotency-Key, could tell a
  // replay from a conflict, and so confirm a guess at that batch's signals; a refusal replayed would outlive a grant.
  const refusals = verdicts.flatMap((v, index) => ('error' in v ? [{ index, error: v.error }] : []));
  if (refusals.length === verdicts.length) return { kind: 'created', data: refusals, stored: 0 };
  const items: BatchItemRecord[] = verdicts.map((v) =>
    'decision' in v ? { id: v.decision.decision_id } : { error: v.error },
  );
  const extras = new Map(
    verdicts.flatMap((v) => ('decision' in v && v.extra ? [[v.decision.decision_id, v.extra] as const] : [])),
  );

  const saved = await deps.store.saveBatch(decisions, principal, {
    items,
    createdMs: options.nowMs,
    idempotency: options.idempotency,
    extras,
  });
  if (saved.kind === 'conflict') return saved;
  if (saved.kind === 'created') {
    return {
      kind: 'created',
      data: verdicts.map((v, index) => ('decision' in v ? { index, decision: v.decision } : { index, error: v.error })),
      stored: decisions.length,
    };
  }

  // A replay: the first batch's decisions by id. Any its first attempt did not get to store (it failed between
  // claiming the key and writing) are rebuilt from this same body at the first attempt's moment, with their ids.
  // Every decision is authorized again for this caller (docs/partners.md, "Retrying"): the key is the partner's, not
  // the caller's, so another key of the partner, or this one after an ungrant, gets WORKSPACE_NOT_ALLOWED for the item.
  const ids = saved.items.flatMap((item) => ('id' in item ? [item.id] : []));
  const found = await deps.store.getMany(ids);
  // A decision rebuilt while its first attempt still writes would be overwritten by it (and any feedback given on the
  // rebuilt one with it): not before that attempt failed, or is over by the gateway's timeout (docs/partners.md).
  const inFlight = !saved.failed && options.nowMs - saved.createdMs < RECEIPT_SKEW_MS;
  if (inFlight && ids.some((id) => !found.has(id))) return { kind: 'in_flight' };
  const stored = [...found.values()];
  const allowed = await replayAllowed(
    deps.workspaceAccess,
    principal,
    stored.map((d) => d.workspace_id),
  );
  const withheld = new Set(stored.filter((_, i) => !allowed[i]).map((d) => d.decision_id));
  const rebuilt: Decision[] = [];
  const rebuiltExtras = new Map<string, DecisionExtras>();
  const data: BatchResultItem[] = [];
  for (const [index, item] of saved.items.entries()) {
    if ('error' in item) {
      // The grant comes before validation, as for a new item: a stored refusal is no answer for another key's item.
      const hidden = await withheldFrom(principal, signals[index], deps.workspaceAccess);
      data.push({ index, error: hidden ? notAllowed() : inAnswerOrder(item.error) });
      continue;
    }
    let decision = found.get(item.id);
    if (decision && withheld.has(decision.decision_id)) {
      data.push({ index, error: notAllowed() });
      continue;
    }
    if (!decision) {
      const verdict = await judge(signals[index], index, principal, deps, saved.createdMs, item.id);
      if (!('decision' in verdict)) {
        if (verdict.error.code !== 'WORKSPACE_NOT_ALLOWED')
          throw new Error('a replayed batch item no longer validates');
        data.push({ index, error: verdict.error });
        continue;
      }
      decision = verdict.decision;
      rebuilt.push(decision);
      if (verdict.extra) rebuiltExtras.set(decision.decision_id, verdict.extra);
    }
    data.push({ index, decision });
  }
  if (!rebuilt.length) return { kind: 'replayed', data };
  // Stored after all since the read above (a first attempt's write that landed late): answered as stored.
  const storedMeanwhile = await deps.store.putNew(rebuilt, principal, rebuiltExtras);
  return {
    kind: 'replayed',
    data: data.map((item) => {
      const stored = 'decision' in item ? storedMeanwhile.get(item.decision.decision_id) : undefined;
      return stored ? { index: item.index, decision: stored } : item;
    }),
  };
}
