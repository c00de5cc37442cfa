// What workspaces learned, in the learning table (docs/learning.md, Storage layout): a container's load of a workspace
// and its check of what changed since (learning-items.ts), with the workspace's policy (policy-store.ts).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type WorkspaceModel, applyDeltas, examplesHeld } from '../domain/learning/model';
import type { WorkspaceState, WorkspaceStore } from '../domain/ports';
import { OVERLAP_MS, entryCursor, seeAll, takeEntries } from '../domain/learning/entries';
import { journalDeltas } from '../domain/learning/label-delta';
import { FOLD_AGE_MS, FOLD_RUN_MS, FOLD_WINDOW, LearningFolder, runOutAfter } from './learning-fold';
import { countsFrom, itemsBytes, queryCounts, queryEntries, readModelItem } from './learning-items';
import { DynamoPolicyStore } from './policy-store';
import { AGAIN, retrying } from '../domain/retry';

/** The policy's reads and writes are the policy store's (policy-store.ts); what workspaces learned is this one's. */
export class DynamoWorkspaceStore extends DynamoPolicyStore implements WorkspaceStore {
  /** Folds a workspace's entries into its label items when a check finds enough of them (learning-fold.ts). */
  readonly folder: LearningFolder;

  constructor(client: DynamoDBDocumentClient, tableName: string, learningTable: string) {
    super(client, tableName, learningTable);
    this.folder = new LearningFolder(client, learningTable);
  }

  /**
   * A container's load of a workspace: the model item, the generation's label items, then every entry after the
   * fold mark, each applied to the labels whose own mark it is past, and last the policy (so a policy change that
   * lands after the entries were read is an entry the next check finds).
   */
  async loadState(workspaceId: string): Promise<WorkspaceState> {
    return this.load(workspaceId, true);
  }

  /**
   * What loadState would load, for `admin workspace model`, without making the model item a first load makes: a
   * workspace id no load has seen (a typo) is generation 0 (or version 3's) with no labels, and leaves nothing behind.
   * No sketch key then: the state is for reading, never for sketching. A fold that is due still runs, as in a load
   * (docs/deploy.md); with no model item its claim's condition fails, so it writes nothing.
   */
  async readState(workspaceId: string): Promise<Pick<WorkspaceState, 'model' | 'generation'>> {
    return this.load(workspaceId, false);
  }

  private async load(workspaceId: string, makeModelItem: boolean): Promise<WorkspaceState> {
    return retrying('workspace load', async () => {
      const newKey = makeModelItem ? undefined : null;
      const meta = await readModelItem(this.client, this.learningTable, workspaceId, this.tableName, newKey);
      const generation = meta.generation;
      const labels = await queryCounts(this.client, this.learningTable, workspaceId, generation);
      const held = labels.items.map(countsFrom);
      // Each label's own fold mark: the entries up to it are in its counts.
      const folded = new Map(held.map((h) => [`${h.counts.field}:${h.counts.label}`, h.folded]));
      const model: WorkspaceModel = { version: 0, labels: held.map(({ counts }) => counts) };
      const readAt = Date.now();
      const read = await queryEntries(this.client, this.learningTable, workspaceId, meta.folded, true);
      // A reset landed since the model item was read: load its generation.
      if (read.entries.some((e) => e.generation > generation)) return AGAIN;
      // Summed per label first, so the order entries landed in does not matter (a count never goes below 0 midway).
      const after = (at: number, id: string) => at > (folded.get(id) ?? 0);
      const mine = read.entries
        .filter((e) => e.generation === generation)
        .map((e) => ({
          sketch: e.sketch,
          changes: e.changes.filter((c) => after(e.at, `${c.field}:${c.label}`)),
          deltas: e.deltas?.filter((d) => after(e.at, `${d.field}:${d.label}`)),
        }));
      applyDeltas(model, journalDeltas(mine));
      const cursor = entryCursor(readAt, meta.folded);
      seeAll(cursor, read.entries, readAt);
      // Its version is the examples it holds: 0 after a reset, so the workspace decides as a fresh one.
      model.labels = model.labels.filter((l) => l.docs > 0);
      model.version = examplesHeld(model);
      const policy = await this.getPolicy(workspaceId);
      const state: WorkspaceState = {
        policy,
        model,
        sketchKey: String(meta.sketchKey),
        generation,
        entries: cursor,
        loadCost: {
          requests: 3 + labels.requests + read.requests,
          bytes: itemsBytes(labels.items) + itemsBytes(read.items),
        },
      };
      await this.maybeFold(workspaceId, state);
      return state;
    });
  }

  /**
   * What changed since `cached` was loaded, from one Query of the entries after its last read minus OVERLAP_MS
   * (eventually consistent: half a read unit per 4 KB): undefined when nothing did. New entries are applied in place
   * (the cached model's index kept in step); a policy entry reads the policy again (until a read succeeds); a reset
   * loads the workspace.
   */
  async refreshState(workspaceId: string, cached: WorkspaceState): Promise<WorkspaceState | undefined> {
    const cursor = cached.entries;
    if (!cursor) return this.loadState(workspaceId);
    const readAt = Date.now();
    const read = await queryEntries(this.client, this.learningTable, workspaceId, cursor.readAt - OVERLAP_MS, false);
    const generation = cached.generation ?? 0;
    const taken = takeEntries(cached.model, cursor, generation, read.entries, readAt);
    if (taken.reload) return this.loadState(workspaceId);
    // Its entry is seen now: should the read fail, the next check still reads it (docs/learning.md, Kept fresh).
    const readPolicy = (cursor.policyUnread ||= taken.policy);
    const policy = readPolicy ? await this.getPolicy(workspaceId) : cached.policy;
    cursor.policyUnread = false;
    await this.maybeFold(workspaceId, cached);
    if (!taken.applied && !readPolicy) return undefined;
    return { ...cached, policy, loadCost: { requests: 1 + (readPolicy ? 1 : 0), bytes: itemsBytes(read.items) } };
  }

  /** Folds when this container has seen FOLD_WINDOW unfolded entries, or one FOLD_AGE_MS old (a failure waits). */
  private async maybeFold(workspaceId: string, state: WorkspaceState): Promise<void> {
    const cursor = state.entries!;
    const now = Date.now();
    const due = cursor.unfolded >= FOLD_WINDOW || now - (cursor.oldestUnfolded ?? now) >= FOLD_AGE_MS;
    if (!due) return;
    try {
      const deadline = runOutAfter(FOLD_RUN_MS);
      let cut = false;
      const before = cursor.folded;
      cursor.folded = await this.folder.fold(workspaceId, now, () => (cut ||= deadline()));
      // Cut short by its deadline, or left to another run's claim (the mark did not move): the next check tries
      // again, taking it over once its claim is old enough (that run may have crashed).
      if (cut || cursor.folded === before) return;
      cursor.unfolded = 0;
      cursor.oldestUnfolded = undefined;
    } catch {
      // Left for the next check; a fold half done is finished by whoever runs it next.
    }
  }
}
