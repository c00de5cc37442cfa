// A bounded least-recently-used map: a hit moves the entry to the young end, an insert over the bound drops the
// oldest. Map keeps insertion order, so delete + set is the move. Optionally bounded by bytes as well (an estimate
// the caller gives per entry), so a few large entries cannot hold more memory than many small ones.

interface ByteBound<K, V> {
  maxBytes: number;
  /** Estimated bytes an entry holds (key and value). */
  sizeOf: (key: K, value: V) => number;
}

export class LruMap<K, V> {
  private readonly map = new Map<K, { value: V; bytes: number }>();
  private totalBytes = 0;

  constructor(
    readonly maxEntries: number,
    private readonly byteBound?: ByteBound<K, V>,
  ) {
    if (!(maxEntries >= 1)) throw new Error('an LRU map needs room for at least one entry');
  }

  get size(): number {
    return this.map.size;
  }

  /** Estimated bytes held (0 without a byte bound). */
  get bytes(): number {
    return this.totalBytes;
  }

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  /** Reads without refreshing. */
  peek(key: K): V | undefined {
    return this.map.get(key)?.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const bytes = this.byteBound ? this.byteBound.sizeOf(key, value) : 0;
    // An entry larger than the whole budget is not kept (it would only push everything else out).
    if (this.byteBound && bytes > this.byteBound.maxBytes) return;
    this.map.set(key, { value, bytes });
    this.totalBytes += bytes;
    const maxBytes = this.byteBound?.maxBytes ?? Infinity;
    while (this.map.size > this.maxEntries || this.totalBytes > maxBytes)
      this.delete(this.map.keys().next().value as K);
  }

  delete(key: K): void {
    const entry = this.map.get(key);
    if (entry === undefined) return;
    this.map.delete(key);
    this.totalBytes -= entry.bytes;
  }
}
