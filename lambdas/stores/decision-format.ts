// How a decision is kept in its item's `decision` map. DynamoDB bills a write by the KB of the whole item, names
// included, and a decision item sat near 1 KB (docs/performance.md, "The stored decision item"), so since version 4
// the map is compact: one or two letters per field (one table below, keyed by the Decision type: a new field does not
// compile until it has its letters), no decision id (the item's `decision_id`, a key of the table's items and of every
// listing index entry, holds it), and a timestamp as its epoch ms when that prints back the very same text. An item
// written before (full field names, the id inside) is read as it was stored. Either way the decision comes back in
// the contract's field order (DECISION_FIELDS; DynamoDB maps do not keep order), exactly as it was answered.
import { DECISION_FIELDS, type Decision, type Reason } from '../domain/decision';

interface Codec<T> {
  write(value: T): unknown;
  read(stored: unknown): T;
}

/** An RFC 3339 time: its epoch ms when Date prints it back identically (`...T10:00:00.000Z`), else the text itself. */
function instant<T extends string | null>(): Codec<T> {
  return {
    write: (value) => {
      if (value === null) return null;
      const ms = Date.parse(value);
      return Number.isFinite(ms) && new Date(ms).toISOString() === value ? ms : value;
    },
    read: (stored) => (typeof stored === 'number' ? new Date(stored).toISOString() : stored) as T,
  };
}

/** A reason's fields, in the order partners see, and their letters in a compact stored decision. */
const REASON_AT: { [K in keyof Reason]-?: string } = { code: 'c', message: 'm', weight: 'w' };
const REASON_FIELDS = Object.keys(REASON_AT) as (keyof Reason)[];

/** Copies each reason field from its name in one form to its name in the other (a plain loop: on every analyze). */
function renamed(r: Record<string, unknown>, from: (f: keyof Reason) => string, to: (f: keyof Reason) => string) {
  const out: Record<string, unknown> = {};
  for (const f of REASON_FIELDS) out[to(f)] = r[from(f)];
  return out;
}
const asIs = (f: keyof Reason) => f;
const letters = (f: keyof Reason) => REASON_AT[f];

const reasons: Codec<Reason[]> = {
  write: (list) => list.map((r) => renamed(r as unknown as Record<string, unknown>, asIs, letters)),
  read: (stored) => (stored as Record<string, unknown>[]).map((r) => renamed(r, letters, asIs) as unknown as Reason),
};

/**
 * Where each field of a decision is kept in a compact stored decision, and how when not as is. `null`: not in the map
 * (the decision id: the item's own `decision_id`).
 */
const STORED_AS: { [K in keyof Decision]-?: null | { at: string; codec?: Codec<Decision[K]> } } = {
  decision_id: null,
  workspace_id: { at: 'w' },
  priority: { at: 'p' },
  score: { at: 's' },
  recommended_action: { at: 'a' },
  category: { at: 'c' },
  queue: { at: 'q' },
  reasons: { at: 'r', codec: reasons },
  source: { at: 'o' },
  received_at: { at: 'ra', codec: instant() },
  created_at: { at: 'ca', codec: instant() },
  model_version: { at: 'mv' },
  confidence: { at: 'cf' },
  language: { at: 'l' },
  sentiment: { at: 'se' },
  respond_by: { at: 'rb', codec: instant() },
  policy_version: { at: 'pv' },
};

/** The attribute of the stored decision's priority, in both formats (the retired listing index filters on it). */
export const STORED_PRIORITY = { full: 'priority', compact: STORED_AS.priority!.at } as const;

/** The `decision` map of a new item: compact (its id is the item's `decision_id`). */
export function storedDecision(decision: Decision): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of DECISION_FIELDS) {
    const place = STORED_AS[field] as { at: string; codec?: Codec<unknown> } | null;
    if (place) out[place.at] = place.codec ? place.codec.write(decision[field]) : decision[field];
  }
  return out;
}

/**
 * The decision an item (or index entry, or idempotency record) holds in its `decision` map, in either format:
 * written before version 4 with full names and its id inside (fields it was stored without, such as a version 1
 * decision's `confidence`, stay absent), or compact with its id in the item's `decision_id`.
 */
export function decisionFrom(item: Record<string, unknown>): Decision {
  const stored = (item.decision ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (typeof stored.decision_id === 'string') {
    for (const field of DECISION_FIELDS) if (stored[field] !== undefined) out[field] = stored[field];
    const full = (stored.reasons as Record<string, unknown>[] | undefined) ?? [];
    out.reasons = full.map((r) => renamed(r, asIs, asIs));
    return out as unknown as Decision;
  }
  for (const field of DECISION_FIELDS) {
    const place = STORED_AS[field] as { at: string; codec?: Codec<unknown> } | null;
    if (!place) out[field] = item.decision_id;
    else if (stored[place.at] !== undefined) {
      out[field] = place.codec ? place.codec.read(stored[place.at]) : stored[place.at];
    }
  }
  return out as unknown as Decision;
}
