// Folding the feedback journal into the label items, exactly once whoever runs it and however often: the head's
// `folding` claim, the window's plan item, each label's mark `lf`, then the head's fold marker (docs/learning.md,
// "Corrections at the price of a write").
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type LabelDelta, addDeltaToCounts, journalDeltas } from '../domain/learning/label-delta';
import { JOURNAL_GAP_GIVE_UP_MS, type JournalEntry } from '../domain/learning/journal';
import {
  type Head,
  WORKSPACE_PREFIX,
  countsFrom,
  entryBytes,
  foldPlanPk,
  headFrom,
  headPk,
  labelPk,
  readJournal,
  retryingConflicts,
  updateHead,
} from './workspace-head';
import { batchWriteAll } from './batch-writes';
import { FOLD_LAG, FOLD_WINDOW, type FoldOptions, foldDue, foldEnd } from './fold-schedule';
import { consumedUnits, getItem } from './dynamodb-client';
import { conditionFailed, transactionConflict } from './database-faults';

/** Counts ADDed by one update: its expression stays well under DynamoDB's 4 KB. */
const TERMS_PER_UPDATE = 250;
/** A fold's plan is kept this long (far beyond any retry). */
const PLAN_SECONDS = 30 * 24 * 60 * 60;

export class JournalFolder {
  /** Folds run, and the write and read units they consumed as DynamoDB reported them (updates: the whole item). */
  readonly stats = { folds: 0, writeUnits: 0, readUnits: 0 };
  /** Told when the clean-up after a reset fails (the service logs it). */
  onCleanupFailed?: (failure: { workspaceId: string; generation: number; error: unknown }) => void;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly options: FoldOptions = { window: FOLD_WINDOW, lag: FOLD_LAG },
  ) {}

  /** After a feedback's head update (`head` as it returned): runs the fold that is due, if any. */
  async maybeFold(workspaceId: string, head: Head, nowMs: number): Promise<void> {
    const generation = head.generation ?? 0;
    if (!foldDue(head, nowMs, this.options)) return;
    const end = head.folding ?? foldEnd(head, nowMs, this.options);
    if (end === undefined) return;
    if (await this.claim(workspaceId, generation, head, end, nowMs))
      await this.fold(workspaceId, generation, head.folded, end, nowMs, head);
  }

  /** Names the fold in the head (or takes over one left in flight); false when another runner got there first. */
  private async claim(workspaceId: string, generation: number, head: Head, end: number, nowMs: number) {
    const takeover = head.folding !== undefined;
    try {
      const out = await updateHead(this.client, this.tableName, workspaceId, {
        UpdateExpression: 'SET folding = :end, folding_at = :now',
        ConditionExpression: takeover
          ? '#gen = :gen AND folding = :end AND folding_at = :at'
          : '#gen = :gen AND folded = :start AND attribute_not_exists(folding)',
        ExpressionAttributeNames: { '#gen': 'generation' },
        ExpressionAttributeValues: {
          ':end': end,
          ':now': nowMs,
          ':gen': generation,
          ...(takeover ? { ':at': head.foldingAt ?? 0 } : { ':start': head.folded }),
        },
        ReturnConsumedCapacity: 'TOTAL',
      });
      this.stats.writeUnits += consumedUnits(out);
      return true;
    } catch (err) {
      if (conditionFailed(err)) return false;
      throw err;
    }
  }

  /**
   * Folds entries (start, end] of `generation`; safe to run again, concurrently or after a crash. `head` (as the claim
   * read it) tells since when an entry has been missing; without it, an entry missing after the short wait is given up.
   */
  async fold(
    workspaceId: string,
    generation: number,
    start: number,
    end: number,
    nowMs: number,
    head?: Head,
  ): Promise<void> {
    const seqs = Array.from({ length: end - start }, (_, i) => start + 1 + i);
    const entries = await this.readEntries(workspaceId, generation, seqs);
    const missing = await this.plan(workspaceId, generation, end, seqs, entries, nowMs, head);
    if (typeof missing === 'number') return this.release(workspaceId, generation, end, nowMs, head!, missing);
    const taken = seqs
      .filter((s) => !missing.has(s))
      .map((s) => entries.get(s))
      .filter((e): e is JournalEntry => e !== undefined);
    const deltas = journalDeltas(taken);
    await Promise.all(deltas.map((d) => this.addDelta(workspaceId, generation, end, d)));
    // What the window's imports weighed comes off the head's import weight with the marker's move (exactly once).
    const imported = taken.reduce((sum, e) => sum + (e.examples ?? 0), 0);
    const added = deltas.filter((d) => d.docs > 0).map((d) => `${d.field}:${d.label}`);
    if (added.length) {
      // The model item lists the labels a load reads: this generation's only (a reset moves it to the next one).
      try {
        const out = await retryingConflicts(() =>
          this.client.send(
            new UpdateCommand({
              TableName: this.tableName,
              Key: { pk: WORKSPACE_PREFIX.model + workspaceId },
              UpdateExpression: 'ADD #labels :labels',
              ConditionExpression: generation === 0 ? 'attribute_not_exists(#gen) OR #gen = :gen' : '#gen = :gen',
              ExpressionAttributeNames: { '#labels': 'labels', '#gen': 'generation' },
              ExpressionAttributeValues: { ':labels': new Set(added), ':gen': generation },
              ReturnConsumedCapacity: 'TOTAL',
            }),
          ),
        );
        this.stats.writeUnits += consumedUnits(out);
      } catch (err) {
        if (!conditionFailed(err)) throw err;
        return this.afterReset(workspaceId, generation, deltas);
      }
    }
    try {
      const out = await updateHead(this.client, this.tableName, workspaceId, {
        UpdateExpression: `SET folded = :end, unfolded_since = :now REMOVE folding, folding_at${imported ? ' ADD iw :minus' : ''}`,
        ConditionExpression: '#gen = :gen AND folding = :end',
        ExpressionAttributeNames: { '#gen': 'generation' },
        ExpressionAttributeValues: {
          ':end': end,
          ':gen': generation,
          ':now': nowMs,
          ...(imported ? { ':minus': -imported } : {}),
        },
        ReturnValues: 'ALL_NEW',
        ReturnConsumedCapacity: 'TOTAL',
      });
      this.stats.writeUnits += consumedUnits(out);
      this.stats.folds++;
      const after = headFrom(out.Attributes);
      // Folded up to the head, no import is left unfolded: a weight left (an entry given up, its examples unknown) goes.
      if (after.seq === end && after.importWeight !== 0)
        await updateHead(this.client, this.tableName, workspaceId, {
          UpdateExpression: 'SET iw = :zero',
          ConditionExpression: '#gen = :gen AND seq = :end AND iw = :iw',
          ExpressionAttributeNames: { '#gen': 'generation' },
          ExpressionAttributeValues: { ':zero': 0, ':gen': generation, ':end': end, ':iw': after.importWeight },
        }).catch((e: unknown) => {
          if (!conditionFailed(e)) throw e;
        });
    } catch (err) {
      // Another runner finished this fold, or a reset moved the workspace on.
      if (!conditionFailed(err)) throw err;
      const head = await getItem(this.client, this.tableName, headPk(workspaceId));
      if (Number(head?.generation ?? 0) !== generation) await this.afterReset(workspaceId, generation, deltas);
    }
  }

  /**
   * Gives the claim back, noting the highest number found missing and since when, for a later fold to wait on, and
   * when this one looked (foldDue waits FOLD_GAP_RETRY_MS from it).
   */
  private async release(workspaceId: string, generation: number, end: number, nowMs: number, head: Head, gap: number) {
    const known = head.gapSeq !== undefined && head.gapSeq >= gap;
    try {
      const out = await updateHead(this.client, this.tableName, workspaceId, {
        UpdateExpression: 'SET gap_seq = :gap, gap_at = :at, gap_checked_at = :claimed REMOVE folding, folding_at',
        ConditionExpression: '#gen = :gen AND folding = :end AND folding_at = :claimed',
        ExpressionAttributeNames: { '#gen': 'generation' },
        ExpressionAttributeValues: {
          ...{ ':gap': known ? head.gapSeq : gap, ':at': known ? head.gapAt : nowMs },
          ...{ ':gen': generation, ':end': end, ':claimed': nowMs },
        },
        ReturnConsumedCapacity: 'TOTAL',
      });
      this.stats.writeUnits += consumedUnits(out);
    } catch (err) {
      // Taken over, or a reset moved the workspace on.
      if (!conditionFailed(err)) throw err;
    }
  }

  /**
   * A reset landed while this fold of the generation it replaced was in flight: the label items it wrote after the
   * reset's clean-up are never read; deleted here (a failure, told to `onCleanupFailed`, leaves them).
   */
  private async afterReset(workspaceId: string, generation: number, deltas: LabelDelta[]): Promise<void> {
    const keys = deltas.map((d) => ({ pk: labelPk(workspaceId, d.field, d.label, generation) }));
    const requests = keys.map((Key) => ({ DeleteRequest: { Key } }));
    await batchWriteAll(this.client, this.tableName, requests).catch((error: unknown) =>
      this.onCleanupFailed?.({ workspaceId, generation, error }),
    );
  }

  /**
   * The window's entries: read eventually consistent (half a unit each, they were written a while ago), and those not
   * found read again strongly consistent, so every run of the fold finds every entry that exists.
   */
  private async readEntries(workspaceId: string, generation: number, seqs: number[]) {
    const read = await readJournal(this.client, this.tableName, workspaceId, generation, seqs, (item, consistent) => {
      // A unit per 4 KB strongly consistent, half that eventually consistent (a feedback's entry is well under 4 KB).
      this.stats.readUnits += Math.max(1, Math.ceil((item ? entryBytes(item) : 0) / 4096)) * (consistent ? 1 : 0.5);
    });
    return new Map([...read.entries].filter((e): e is [number, JournalEntry] => e[1] !== undefined));
  }

  /** The window's missing entries: the plan's if one was written, else this run's (after a short wait for stragglers). */
  private async plan(
    workspaceId: string,
    generation: number,
    end: number,
    seqs: number[],
    entries: Map<number, JournalEntry>,
    nowMs: number,
    head?: Head,
  ): Promise<Set<number> | number> {
    const pk = foldPlanPk(workspaceId, generation, end);
    const existing = await getItem(this.client, this.tableName, pk);
    this.stats.readUnits += 1;
    if (existing) return new Set(((existing.missing as number[] | undefined) ?? []).map(Number));
    for (let attempt = 0; attempt < 2 && seqs.some((s) => !entries.has(s)); attempt++) {
      await new Promise((r) => setTimeout(r, 100));
      const again = await this.readEntries(
        workspaceId,
        generation,
        seqs.filter((s) => !entries.has(s)),
      );
      for (const [s, e] of again) entries.set(s, e);
    }
    const missing = seqs.filter((s) => !entries.has(s));
    // A number is given up only once a fold has found it missing JOURNAL_GAP_GIVE_UP_MS ago (as a container gives it
    // up): before, it may be an import or feedback whose entry is still being written, however far behind the head.
    const given = (s: number) => s <= (head?.gapSeq ?? 0) && nowMs - (head?.gapAt ?? nowMs) >= JOURNAL_GAP_GIVE_UP_MS;
    if (head && !missing.every(given)) return Math.max(...missing);
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk, missing, expires_at: Math.floor(nowMs / 1000) + PLAN_SECONDS },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      this.stats.writeUnits += 1;
      return new Set(missing);
    } catch (err) {
      if (!conditionFailed(err)) throw err;
      const other = await getItem(this.client, this.tableName, pk);
      return new Set(((other?.missing as number[] | undefined) ?? []).map(Number));
    }
  }

  /**
   * One label's delta, applied once (the item's mark `lf` is the last fold end it holds). A delta of at most
   * TERMS_PER_UPDATE counts is one ADD; a larger one (a label in most of the window's feedback: a priority) rewrites
   * the item whole, read then put on the condition that neither a fold nor an import (`iv`) changed it in between.
   * Either way one write billed by the item's size, where ADDs in parts would pay it once per part.
   */
  private async addDelta(workspaceId: string, generation: number, end: number, delta: LabelDelta) {
    const pk = labelPk(workspaceId, delta.field, delta.label, generation);
    const terms: [string, number][] = [['docs', delta.docs], ['total', delta.total], ...delta.counts];
    if (terms.length <= (this.options.termsPerUpdate ?? TERMS_PER_UPDATE)) return this.addSmall(pk, end, terms);
    return this.rewrite(pk, end, delta);
  }

  private async addSmall(pk: string, mark: number, terms: [string, number][]) {
    const names: Record<string, string> = { '#lf': 'lf' };
    const values: Record<string, number> = { ':mark': mark };
    const valueOf = new Map<number, string>();
    const adds = terms.map(([name, n], i) => {
      names[`#${i}`] = name;
      let v = valueOf.get(n);
      if (!v) {
        v = `:v${valueOf.size}`;
        valueOf.set(n, v);
        values[v] = n;
      }
      return `#${i} ${v}`;
    });
    try {
      const out = await retryingConflicts(() =>
        this.client.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { pk },
            UpdateExpression: `SET #lf = :mark ADD ${adds.join(', ')}`,
            ConditionExpression: 'attribute_not_exists(#lf) OR #lf < :mark',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ReturnConsumedCapacity: 'TOTAL',
          }),
        ),
      );
      this.stats.writeUnits += consumedUnits(out);
    } catch (err) {
      // Applied before (another run of this fold).
      if (!conditionFailed(err)) throw err;
    }
  }

  private async rewrite(pk: string, mark: number, delta: LabelDelta) {
    for (let attempt = 0; ; attempt++) {
      const read = await this.client.send(
        new GetCommand({
          TableName: this.tableName,
          Key: { pk },
          ConsistentRead: true,
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      this.stats.readUnits += consumedUnits(read);
      const item = read.Item;
      if (item?.lf !== undefined && Number(item.lf) >= mark) return;
      const counts = countsFrom(delta.field, delta.label, item ?? {});
      addDeltaToCounts(counts, delta);
      const next: Record<string, unknown> = { pk, docs: counts.docs, total: counts.total, lf: mark };
      if (item?.iv !== undefined) next.iv = item.iv;
      for (const [b, n] of counts.text) next[`t${b.toString(36)}`] = n;
      for (const [b, n] of counts.senders) next[`s${b.toString(36)}`] = n;
      for (const [b, n] of counts.domains) next[`d${b.toString(36)}`] = n;
      const values: Record<string, unknown> = {};
      const conditions: string[] = [];
      if (!item) conditions.push('attribute_not_exists(pk)');
      else {
        if (item.lf === undefined) conditions.push('attribute_not_exists(lf)');
        else {
          conditions.push('lf = :lf');
          values[':lf'] = item.lf;
        }
        if (item.iv === undefined) conditions.push('attribute_not_exists(iv)');
        else {
          conditions.push('iv = :iv');
          values[':iv'] = item.iv;
        }
      }
      try {
        const out = await this.client.send(
          new PutCommand({
            TableName: this.tableName,
            Item: next,
            ConditionExpression: conditions.join(' AND '),
            ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
            ReturnConsumedCapacity: 'TOTAL',
          }),
        );
        this.stats.writeUnits += consumedUnits(out);
        return;
      } catch (err) {
        // Changed in between (an import, another run of this fold): read again.
        if ((!conditionFailed(err) && !transactionConflict(err)) || attempt >= 10) throw err;
        await new Promise((r) => setTimeout(r, Math.random() * 20 * 2 ** Math.min(attempt, 4)));
      }
    }
  }
}
