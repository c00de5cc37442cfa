// Reading the listing index's per-priority partitions as one list (lambdas/stores/decision-list-store.ts): a k-way
// merge by `decision_id` (the items must hold it). Each partition is read in pages; a partition is read further only when the merge needs its
// next item, so a page of `limit` reads about `limit` items in all, plus at most one small first page per partition.
import type { QueryCommandOutput } from '@aws-sdk/lib-dynamodb';

type Item = Record<string, unknown>;

/** One Query page of a partition from `startKey` (undefined: its start), at most `limit` items. */
type PageReader = (partition: string, startKey: Item | undefined, limit: number) => Promise<QueryCommandOutput>;

interface Stream {
  partition: string;
  items: Item[];
  startKey?: Item;
  done: boolean;
}

/**
 * The items of `partitions` merged by `decision_id`, newest first when `descending`. `pageSize(first)` is how many
 * items to ask a partition for: the consumer's remaining need, split over the partitions for the first pages.
 */
export async function* mergePartitions(
  read: PageReader,
  partitions: readonly string[],
  descending: boolean,
  pageSize: (first: boolean) => number,
): AsyncGenerator<Item> {
  const streams: Stream[] = partitions.map((partition) => ({ partition, items: [], done: false }));
  const fill = async (s: Stream, first: boolean) => {
    const out = await read(s.partition, s.startKey, Math.max(1, pageSize(first)));
    s.items.push(...(out.Items ?? []));
    s.startKey = out.LastEvaluatedKey;
    s.done = !out.LastEvaluatedKey;
  };
  await Promise.all(streams.map((s) => fill(s, true)));
  const before = (a: Item, b: Item) =>
    descending ? String(a.decision_id) > String(b.decision_id) : String(a.decision_id) < String(b.decision_id);
  for (;;) {
    // A partition with more to read and nothing buffered could hold the next item: read it first (one at a time, so
    // only what the merge needs is read).
    const dry = streams.find((s) => !s.items.length && !s.done);
    if (dry) {
      await fill(dry, false);
      continue;
    }
    let next: Stream | undefined;
    for (const s of streams) if (s.items.length && (!next || before(s.items[0], next.items[0]))) next = s;
    if (!next) return;
    yield next.items.shift()!;
  }
}
