// Folding a workspace's entries into its label items (docs/learning.md, "Folding"), exactly once whoever runs it and
// however often. A fold claims a window (the model item's `fw`: entries after its mark `f` up to a time OVERLAP_MS in
// the past, so every entry of the window has landed); each label item takes the window's counts with its own mark `w`
// (read, then put whole on the condition that `w` did not move; `w` at the window's end: a second run skips it); then
// the window's entries get their expiry (none before: a count TTL deleted unfolded would be lost); then the model
// item's mark moves.
// A fold left in flight by a crashed runner is run again by the next one, FOLD_TAKEOVER_MS after its claim.
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { inParallel } from '../domain/in-parallel';
import { OVERLAP_MS } from '../domain/learning/entries';
import { journalDeltas } from '../domain/learning/label-delta';
import type { LabelDelta } from '../domain/learning/model';
import { conditionFailed } from './database-faults';
import { consumedUnits } from './dynamodb-client';
import { MODEL_KEY, countsKey, entryExpiry, getModel, labelItemPlus, queryEntries } from './learning-items';
import { AGAIN, retrying } from '../domain/retry';

/** Entries after which a container that saw them folds (a load reads at most about this many). */
export const FOLD_WINDOW = 1_024;
/** A workspace whose oldest unfolded entry is this old folds at its next check. */
export const FOLD_AGE_MS = 60 * 60 * 1000;
/** A fold claimed this long ago and not finished is run again (its runner crashed). */
export const FOLD_TAKEOVER_MS = 10_000;
/** Entries given their expiry at once by a fold (a window holds about FOLD_WINDOW of them). */
const EXPIRIES_AT_ONCE = 25;
/** Label items read and put at once by a fold (a window may touch every label: up to 600 a field, 250 KB each). */
const LABELS_AT_ONCE = 25;
/**
 * What a fold run inside a request may take (its labels and expiries are started until then), so that the request
 * answers within the Lambda's 10 s whatever the window touches. What is left is the next run's: the claim stays, and a
 * check FOLD_TAKEOVER_MS after it takes the fold over, skipping the labels already written (docs/learning.md, Folding).
 */
export const FOLD_RUN_MS = 2_000;

/** A deadline `ms` from now, as fold's `outOfTime`. */
export const runOutAfter = (ms: number) => {
  const deadline = Date.now() + ms;
  return () => Date.now() >= deadline;
};

export class LearningFolder {
  /** Folds run, runs cut by their time (left to a takeover), and the units they consumed as DynamoDB reported them. */
  readonly stats = { folds: 0, cutRuns: 0, writeUnits: 0, readUnits: 0 };

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /**
   * Folds `ws` up to OVERLAP_MS ago unless another fold runs; answers the model item's fold mark afterwards. Once
   * `outOfTime` says so, no label or expiry is started and the run stops, the fold left to a takeover (FOLD_RUN_MS);
   * by default a run goes to the end (the admin CLI, the evals).
   */
  async fold(ws: string, nowMs = Date.now(), outOfTime: () => boolean = () => false): Promise<number> {
    const model = await getModel(this.client, this.table, ws);
    this.stats.readUnits += 1;
    if (model.folding !== undefined && nowMs - (model.foldingAt ?? 0) < FOLD_TAKEOVER_MS) return model.folded;
    const end = model.folding ?? nowMs - OVERLAP_MS;
    if (end <= model.folded) return model.folded;
    // The claim: no other fold in flight, and the mark where this one read it.
    const claim = new UpdateCommand({
      TableName: this.table,
      Key: { ws, sk: MODEL_KEY },
      UpdateExpression: 'SET fw = :end, fa = :now',
      ConditionExpression: 'g = :g AND attribute_not_exists(fw) AND (attribute_not_exists(f) OR f = :f)',
      ExpressionAttributeValues: { ':end': end, ':now': nowMs, ':g': model.generation, ':f': model.folded },
      ReturnConsumedCapacity: 'TOTAL',
    });
    // A takeover claims the fold in turn (its time `fa` moved on the condition that it is the one read), so that the
    // containers checking after FOLD_TAKEOVER_MS do not all run the same window at once.
    const takeover = new UpdateCommand({
      TableName: this.table,
      Key: { ws, sk: MODEL_KEY },
      UpdateExpression: 'SET fa = :now',
      ConditionExpression: `g = :g AND fw = :end AND ${model.foldingAt === undefined ? 'attribute_not_exists(fa)' : 'fa = :at'}`,
      ExpressionAttributeValues: {
        ':end': end,
        ':now': nowMs,
        ':g': model.generation,
        ...(model.foldingAt === undefined ? {} : { ':at': model.foldingAt }),
      },
      ReturnConsumedCapacity: 'TOTAL',
    });
    if (!(await this.landed(this.client.send(model.folding === undefined ? claim : takeover)))) return model.folded;
    const read = await queryEntries(this.client, this.table, ws, model.folded, true, end);
    this.stats.readUnits += read.units;
    const taken = read.entries.filter((e) => e.generation === model.generation);
    // Every label the window touches takes the window's mark, one whose share sums to nothing too (taught, then moved
    // to another label): else its mark stays before the window, and a load after TTL deleted some of the window's
    // entries (a run cut between two expiries, then no takeover for 30 days) would count the rest for it.
    const deltas = journalDeltas(taken, { touched: true });
    let cut = false;
    const inTime = () => !(cut ||= outOfTime());
    await inParallel(deltas, LABELS_AT_ONCE, async (d) => {
      if (inTime()) await this.addDelta(ws, model.generation, end, d);
    });
    // Only now, every label holding the window, may its entries expire (a run that fails before is run again).
    if (!cut) await this.expire(ws, read.items, nowMs, inTime);
    if (cut) {
      this.stats.cutRuns++;
      return model.folded;
    }
    const done = new UpdateCommand({
      TableName: this.table,
      Key: { ws, sk: MODEL_KEY },
      UpdateExpression: 'SET f = :end REMOVE fw, fa',
      ConditionExpression: 'fw = :end AND g = :g',
      ExpressionAttributeValues: { ':end': end, ':g': model.generation },
      ReturnConsumedCapacity: 'TOTAL',
    });
    // Failed otherwise (a conflict with the forget's own transaction, throttling): the error, after the check below.
    const marked = await this.landed(this.client.send(done)).catch((err: unknown) => err);
    if (marked === true) {
      this.stats.folds++;
      return end;
    }
    // Not done: another run of this fold finished it first, or a forget took the claim away; then the labels this run
    // wrote may have landed after the forget deleted its generation's, and are deleted here (docs/learning.md, Folding).
    this.stats.readUnits += 1;
    if ((await getModel(this.client, this.table, ws)).generation === model.generation) {
      if (marked !== false) throw marked;
      return end;
    }
    const keys = deltas.map((d) => ({ ws, sk: countsKey(model.generation, `${d.field}:${d.label}`) }));
    const deletes = keys.map(
      (Key) => new DeleteCommand({ TableName: this.table, Key, ReturnConsumedCapacity: 'TOTAL' }),
    );
    await Promise.all(deletes.map((command) => this.landed(this.client.send(command))));
    return end;
  }

  /**
   * The window's entries with no expiry (those that move counts: learning-items.ts entryItem) get one, 30 days on, for
   * the containers that have not read them yet (docs/learning.md, "Folding"); only if still there (a forget deletes).
   */
  private async expire(
    ws: string,
    items: readonly Record<string, unknown>[],
    nowMs: number,
    inTime: () => boolean,
  ): Promise<void> {
    const keys = items.filter((i) => i.expires_at === undefined).map((i) => i.sk);
    for (let i = 0; i < keys.length && inTime(); i += EXPIRIES_AT_ONCE) {
      const sent = keys.slice(i, i + EXPIRIES_AT_ONCE).map((sk) =>
        this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: { ws, sk },
            UpdateExpression: 'SET expires_at = :at',
            ConditionExpression: 'attribute_exists(sk)',
            ExpressionAttributeValues: { ':at': entryExpiry(nowMs) },
            ReturnConsumedCapacity: 'TOTAL',
          }),
        ),
      );
      await Promise.all(sent.map((write) => this.landed(write)));
    }
  }

  /** A conditional write's outcome, its write units counted: false when its condition was false. */
  private async landed(write: Promise<object>): Promise<boolean> {
    try {
      // Awaited first: `+= consumedUnits(await write)` would read the sum before the wait and lose concurrent writes'.
      const out = await write;
      this.stats.writeUnits += consumedUnits(out);
      return true;
    } catch (err) {
      if (conditionFailed(err)) return false;
      throw err;
    }
  }

  /**
   * One label's share of the window, applied once (its mark `w` at the window's end says it was): the item read, the
   * share added exactly (a count may stay below 0 until a migration's share lands: docs/learning.md, "Folding"), and
   * the item put whole on the condition that its mark did not move. One read and one write, billed by the item's size.
   */
  private addDelta(ws: string, generation: number, end: number, delta: LabelDelta): Promise<void> {
    const sk = countsKey(generation, `${delta.field}:${delta.label}`);
    return retrying('label rewrite', async () => {
      const read = await this.client.send(
        new GetCommand({
          TableName: this.table,
          Key: { ws, sk },
          ConsistentRead: true,
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      this.stats.readUnits += consumedUnits(read);
      const was = read.Item && Number(read.Item.w ?? 0);
      if (was !== undefined && was >= end) return;
      const put = new PutCommand({
        TableName: this.table,
        Item: labelItemPlus(ws, sk, read.Item, delta, end),
        ConditionExpression:
          was === undefined ? 'attribute_not_exists(sk)' : was ? 'w = :was' : 'attribute_not_exists(w)',
        ...(was ? { ExpressionAttributeValues: { ':was': was } } : {}),
        ReturnConsumedCapacity: 'TOTAL',
      });
      // Another fold's rewrite moved the mark first: read again.
      return (await this.landed(this.client.send(put))) ? undefined : AGAIN;
    });
  }
}
