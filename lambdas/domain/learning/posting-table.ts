// One field's postings for one kind of bucket (text, sender or domain): for each bucket, the (label position, count)
// pairs of the labels that counted it, in two flat typed arrays. A prediction reads about 96 buckets of a model that
// is cold in the CPU caches; a Map of arrays costs about four dependent memory reads per bucket (the Map's entry, the
// array, its elements), this table two (the slot, then the bucket's block), and less memory per bucket.
// Buckets are below 2^14 (TEXT_BUCKETS, SENDER_BUCKETS): slots are found by `bucket & mask`, probing linearly, so a
// table grown to 2^14 slots maps every bucket to its own slot.

/** Slots are probed on `bucket & mask`: bucket values are keyed hashes already, uniform in their low bits. */
const MAX_SLOTS = 1 << 14;
const MIN_SLOTS = 16;
/** Scratch for PostingTable.of: pairs per bucket (all zero between builds) and each bucket's block offset. */
const PAIRS = new Int32Array(MAX_SLOTS);
const BLOCK_AT = new Int32Array(MAX_SLOTS);

export class PostingTable {
  /**
   * Two ints per slot: bucket + 1 (0: empty), and the offset of the bucket's block in `data`. A bucket whose pairs
   * all went away keeps its slot and an empty block (buckets are bounded, so are slots).
   */
  private slots = new Int32Array(2 * MIN_SLOTS);
  private mask = MIN_SLOTS - 1;
  private used = 0;
  /** Blocks: [pairs held, pairs it has room for, label, count, label, count, ...]. */
  data = new Int32Array(64);
  /** The first free int of `data`, and the ints held by blocks a bucket outgrew. */
  private end = 0;
  private waste = 0;

  /**
   * A table holding `n` (bucket, label, count) postings at once, each block exactly its size: one pass to count each
   * bucket's pairs, one to place them (a load builds the whole model's index this way, not pair by pair).
   */
  static of(buckets: Int32Array, labels: Int32Array, counts: Int32Array, n: number): PostingTable {
    const table = new PostingTable();
    // Pairs per bucket and block offsets live in shared scratch, zeroed again for the buckets used.
    const distinctBuckets = new Int32Array(Math.min(n, MAX_SLOTS));
    let distinct = 0;
    for (let i = 0; i < n; i++) {
      const b = buckets[i];
      if (!(b >= 0 && b < MAX_SLOTS)) {
        for (let k = 0; k < distinct; k++) PAIRS[distinctBuckets[k]] = 0;
        throw new RangeError(`bucket ${b} is out of range`);
      }
      if (counts[i] > 0 && PAIRS[b]++ === 0) distinctBuckets[distinct++] = b;
    }
    let size = MIN_SLOTS;
    while (size < MAX_SLOTS && size < 2 * distinct) size *= 2;
    table.slots = new Int32Array(2 * size);
    table.mask = size - 1;
    let end = 0;
    for (let k = 0; k < distinct; k++) {
      const b = distinctBuckets[k];
      BLOCK_AT[b] = end;
      end += 2 + 2 * PAIRS[b];
    }
    const data = new Int32Array(Math.max(64, end));
    for (let i = 0; i < n; i++) {
      if (counts[i] <= 0) continue;
      const block = BLOCK_AT[buckets[i]];
      const held = data[block];
      data[block + 2 + 2 * held] = labels[i];
      data[block + 3 + 2 * held] = counts[i];
      data[block] = held + 1;
    }
    for (let k = 0; k < distinct; k++) {
      const b = distinctBuckets[k];
      data[BLOCK_AT[b] + 1] = PAIRS[b];
      PAIRS[b] = 0;
      const s = table.slotOf(b);
      table.slots[2 * s] = b + 1;
      table.slots[2 * s + 1] = BLOCK_AT[b];
    }
    table.data = data;
    table.used = distinct;
    table.end = end;
    return table;
  }

  /** The offset of a bucket's block in `data` (its pairs start 2 further on), or -1 when no label counted it. */
  find(bucket: number): number {
    const s = this.slotOf(bucket);
    return this.slots[2 * s] === bucket + 1 ? this.slots[2 * s + 1] : -1;
  }

  /** The bucket's slot, or the empty slot it would take: linear probing from `bucket & mask`. */
  private slotOf(bucket: number): number {
    const slots = this.slots;
    const mask = this.mask;
    const key = bucket + 1;
    let s = bucket & mask;
    while (slots[2 * s] !== key && slots[2 * s] !== 0) s = (s + 1) & mask;
    return s;
  }

  /** Adds `by` to label `li`'s count of `bucket` (a count that falls to 0 or below drops its pair); returns the change in pairs. */
  add(bucket: number, li: number, by: number): number {
    if (!(bucket >= 0 && bucket < MAX_SLOTS)) throw new RangeError(`bucket ${bucket} is out of range`);
    let at = this.find(bucket);
    if (at < 0) {
      if (by <= 0) return 0;
      at = this.insert(bucket);
    }
    let d = this.data;
    const held = d[at];
    const last = at + 2 * held;
    for (let j = at + 2; j <= last; j += 2) {
      if (d[j] !== li) continue;
      const next = d[j + 1] + by;
      if (next > 0) {
        d[j + 1] = next;
        return 0;
      }
      // The last pair takes its place: the order of a bucket's pairs means nothing.
      d[j] = d[last];
      d[j + 1] = d[last + 1];
      d[at] = held - 1;
      return -1;
    }
    if (by <= 0) return 0;
    if (held === d[at + 1]) {
      at = this.move(bucket, Math.max(2, 2 * held));
      d = this.data;
    }
    d[at + 2 + 2 * held] = li;
    d[at + 3 + 2 * held] = by;
    d[at] = held + 1;
    return 1;
  }

  /** Bytes its typed arrays hold (outside the JavaScript heap, but in the container's memory). */
  get bytes(): number {
    return this.slots.byteLength + this.data.byteLength;
  }

  /**
   * The bytes a table of `n` postings built at once (`of`, as a load builds it) holds at most: its slots (at least
   * twice its buckets, buckets at most `n` and MAX_SLOTS) and a block of 2 ints plus 2 ints a pair for each bucket.
   */
  static bytesFor(n: number): number {
    const buckets = Math.min(n, MAX_SLOTS);
    let slots = MIN_SLOTS;
    while (slots < MAX_SLOTS && slots < 2 * buckets) slots *= 2;
    return 4 * (2 * slots + Math.max(64, 2 * buckets + 2 * n));
  }

  /** Every bucket that holds pairs, with them: for tests and checks, not the hot path. */
  *entries(): IterableIterator<[number, number[]]> {
    for (let s = 0; s <= this.mask; s++) {
      const key = this.slots[2 * s];
      if (key === 0) continue;
      const at = this.slots[2 * s + 1];
      if (this.data[at] > 0) yield [key - 1, Array.from(this.data.subarray(at + 2, at + 2 + 2 * this.data[at]))];
    }
  }

  /** Rewrites the blocks back to back, each with room for exactly its pairs (when half of `data` is outgrown blocks). */
  compact(): void {
    let size = 0;
    for (let s = 0; s <= this.mask; s++) if (this.slots[2 * s] !== 0) size += 2 + 2 * this.data[this.slots[2 * s + 1]];
    const data = new Int32Array(Math.max(64, size));
    let end = 0;
    for (let s = 0; s <= this.mask; s++) {
      if (this.slots[2 * s] === 0) continue;
      const at = this.slots[2 * s + 1];
      const held = this.data[at];
      data.set(this.data.subarray(at + 2, at + 2 + 2 * held), end + 2);
      data[end] = held;
      data[end + 1] = held;
      this.slots[2 * s + 1] = end;
      end += 2 + 2 * held;
    }
    this.data = data;
    this.end = end;
    this.waste = 0;
  }

  /** Gives a new bucket a slot and an empty block; returns the block's offset. */
  private insert(bucket: number): number {
    // Half full at most, until every bucket has a slot of its own.
    if (2 * (this.used + 1) > this.mask + 1 && this.mask + 1 < MAX_SLOTS) this.rehash(2 * (this.mask + 1));
    const at = this.allocate(2);
    this.data[at] = 0;
    this.data[at + 1] = 2;
    const s = this.slotOf(bucket);
    this.slots[2 * s] = bucket + 1;
    this.slots[2 * s + 1] = at;
    this.used++;
    return at;
  }

  private rehash(size: number): void {
    const old = this.slots;
    this.slots = new Int32Array(2 * size);
    this.mask = size - 1;
    for (let o = 0; o < old.length; o += 2) {
      if (old[o] === 0) continue;
      const s = this.slotOf(old[o] - 1);
      this.slots[2 * s] = old[o];
      this.slots[2 * s + 1] = old[o + 1];
    }
  }

  /** Moves a full block to a new one with room for `room` pairs; returns its offset. */
  private move(bucket: number, room: number): number {
    const to = this.allocate(room);
    // Found after allocating, which may have compacted.
    const from = this.find(bucket);
    const held = this.data[from];
    this.data.copyWithin(to + 2, from + 2, from + 2 + 2 * held);
    this.data[to] = held;
    this.data[to + 1] = room;
    this.waste += 2 + 2 * this.data[from + 1];
    this.slots[2 * this.slotOf(bucket) + 1] = to;
    return to;
  }

  /** Room for a block of `room` pairs at the end of `data`: compacts when half of it is outgrown blocks, else grows. */
  private allocate(room: number): number {
    const need = 2 + 2 * room;
    if (this.end + need > this.data.length) {
      if (this.waste > this.data.length / 2) this.compact();
      if (this.end + need > this.data.length) {
        const data = new Int32Array(Math.max(2 * this.data.length, this.end + need));
        data.set(this.data.subarray(0, this.end));
        this.data = data;
      }
    }
    const at = this.end;
    this.end += need;
    return at;
  }
}
