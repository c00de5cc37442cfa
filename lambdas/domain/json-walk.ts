// Walks over parsed JSON with an explicit stack instead of recursion: a body of 1 MiB can nest 500,000 levels deep,
// far past the call stack, and these walks run before (or whatever) validation says about the body.
import { MAX_ERROR_DETAILS } from '../contract/errors';
import { withoutApiKeys } from './api-key';

/** A piece of output text on the stack, told apart from the JSON values (a parsed body never holds one). */
class Text {
  constructor(readonly text: string) {}
}

/** JSON with object keys sorted, so the same body with other key order or spacing is the same request. */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length) {
    const next = stack.pop();
    if (next instanceof Text) {
      out.push(next.text);
    } else if (next === null || typeof next !== 'object') {
      out.push(String(JSON.stringify(next)));
    } else if (Array.isArray(next)) {
      out.push('[');
      stack.push(new Text(']'));
      for (let i = next.length - 1; i >= 0; i--) {
        stack.push(next[i]);
        if (i > 0) stack.push(new Text(','));
      }
    } else {
      out.push('{');
      stack.push(new Text('}'));
      const keys = Object.keys(next).sort();
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push((next as Record<string, unknown>)[keys[i]], new Text(`${JSON.stringify(keys[i])}:`));
        if (i > 0) stack.push(new Text(','));
      }
    }
  }
  return out.join('');
}

/** A JSON object: not null, not an array (valibot's object schemas take an array for one with no keys). */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Keys that could poison an object's prototype if the body were ever merged into another object. */
const isForbiddenKey = (key: string, value: unknown): boolean =>
  key === '__proto__' ||
  (key === 'constructor' && value !== null && typeof value === 'object' && Object.hasOwn(value, 'prototype'));

/** A key written plainly after a dot; any other is written `["..."]`, JSON-quoted, so a path reads one way only. */
const PLAIN_KEY = /^[A-Za-z0-9_$-]+$/;

/**
 * The JSON path of a place in a body (docs/partners.md, "Errors"): `signals[3].subject`, `metadata["a.b"]`, with
 * numbers as array indexes. The body itself is the empty path. An API key in a key's name is written `<API key>`: an
 * error repeats the path, and a batch's or an import's stores it with its idempotency record.
 */
export function jsonPath(keys: readonly (string | number)[]): string {
  let path = '';
  for (const name of keys) {
    const key = typeof name === 'string' && name.includes('sas_') ? withoutApiKeys(name) : name;
    if (typeof key === 'number') path += `[${key}]`;
    else if (PLAIN_KEY.test(key)) path += path ? `.${key}` : key;
    else path += `[${JSON.stringify(key)}]`;
  }
  return path;
}

/** Document order of two places, each the key indexes from the body down: what holds a place comes before it. */
export function comparePlaces(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** One key of a path as jsonPath writes it: a plain key (after a dot, but first), `[3]` or `["a.b"]`. */
const PATH_KEY = /\.?([A-Za-z0-9_$-]+)|(\[\d+\]|\["(?:[^"\\]|\\.)*"\])/y;

/**
 * The place in `body` of a field jsonPath wrote, each key found as jsonPath writes it (`<API key>` too): a key the
 * body lacks comes after those it holds at that level, and a field that is no path (`(body)`) is the body itself.
 * Each object's keys are written once, so thousands of fields are placed in linear time.
 */
export function fieldPlacer(body: unknown): (field: string) => number[] {
  const orders = new Map<object, Map<string, { at: number; key: string }>>();
  const orderOf = (node: object) => {
    let order = orders.get(node);
    if (!order) {
      order = new Map();
      const array = Array.isArray(node);
      for (const [at, key] of Object.keys(node).entries()) {
        const written = jsonPath([array ? at : key]);
        if (!order.has(written)) order.set(written, { at, key });
      }
      orders.set(node, order);
    }
    return order;
  };
  return (field) => {
    const place: number[] = [];
    let node = body;
    PATH_KEY.lastIndex = 0;
    for (let m = PATH_KEY.exec(field); m && node !== null && typeof node === 'object'; m = PATH_KEY.exec(field)) {
      const order = orderOf(node);
      const found = order.get(m[1] ?? m[2]);
      place.push(found ? found.at : order.size);
      if (!found) break;
      node = (node as Record<string, unknown>)[found.key];
    }
    return place;
  };
}

/** Keys of a path kept at each end when it is written for a person; the middle of a deeper one is elided. */
const PATH_ENDS = 20;

/** A place in the walk: its key and the place holding it (shared by siblings, so the walk copies no paths). */
interface Place {
  parent?: Place;
  key: string | number;
  /** Its index among the keys its holder keeps; a dropped key's is half a step before the kept key after it. */
  at: number;
  /** The place two levels down from the body that holds this one (itself at that depth): a list body's item. */
  item?: Place;
}

/** The indexes from the body down to a place: what comparePlaces orders. */
function indexesOf(place: Place): number[] {
  const at: number[] = [];
  for (let p: Place | undefined = place; p; p = p.parent) at.push(p.at);
  return at.reverse();
}

function pathOf(place: Place): string {
  const keys: (string | number)[] = [];
  for (let p: Place | undefined = place; p; p = p.parent) keys.push(p.key);
  keys.reverse();
  if (keys.length <= 2 * PATH_ENDS) return jsonPath(keys);
  return `${jsonPath(keys.slice(0, PATH_ENDS))}…${jsonPath(keys.slice(-PATH_ENDS)).replace(/^(?!\[)/, '.')}`;
}

/** A forbidden key removed from a body: where it was, and the list item holding it when the body is a list's. */
export interface DroppedKey {
  /** Its JSON path (docs/partners.md, "Errors"), or the bare key past the first paths of its item or body. */
  field: string;
  /** In a body `{"<list>": [...]}`, the list and the index of the item that held it. */
  item?: { list: string; index: number };
  /**
   * Where it was, as indexes among the keys the body keeps (so the details of the body as validated place around it,
   * fieldPlacer): given with its path only, as the bare keys are never listed.
   */
  place?: number[];
}

/**
 * Removes every forbidden key from parsed JSON (JSON.parse defines them as plain own properties; it never sets a
 * prototype), anywhere in it, and returns one entry per key removed, in document order (a removed value is not
 * searched): the JSON paths and places of the first `pathsFor` of each list item and of the rest of the body
 * (docs/partners.md, "Errors"; a deep path is elided in the middle), the bare key for the others, which error details
 * never show, so that a body of 60,000 such keys costs no 60,000 paths.
 */
export function dropForbiddenKeys(value: unknown, pathsFor: number = MAX_ERROR_DETAILS): DroppedKey[] {
  const found: DroppedKey[] = [];
  const pathsWritten = new Map<Place | undefined, number>();
  // One entry per key still to visit, the next in document order on top (a pre-order walk without recursion).
  const stack: { holder: Record<string, unknown>; place: Place }[] = [];
  const visit = (node: unknown, parent?: Place) => {
    if (node === null || typeof node !== 'object') return;
    const holder = node as Record<string, unknown>;
    const keys = Object.keys(holder);
    const array = Array.isArray(node);
    let kept = 0;
    const at = keys.map((key) => (isForbiddenKey(key, holder[key]) ? kept - 0.5 : kept++));
    for (let i = keys.length - 1; i >= 0; i--) {
      const place: Place = { parent, key: array ? Number(keys[i]) : keys[i], at: at[i] };
      place.item = parent === undefined ? undefined : parent.parent === undefined ? place : parent.item;
      stack.push({ holder, place });
    }
  };
  visit(value);
  while (stack.length) {
    const { holder, place } = stack.pop()!;
    const key = String(place.key);
    const child = holder[key];
    if (isForbiddenKey(key, child)) {
      const item = place.item && typeof place.item.key === 'number' ? place.item : undefined;
      const written = pathsWritten.get(item) ?? 0;
      pathsWritten.set(item, written + 1);
      found.push({
        field: written < pathsFor ? pathOf(place) : key,
        ...(item ? { item: { list: String(item.parent!.key), index: item.key as number } } : {}),
        ...(written < pathsFor ? { place: indexesOf(place) } : {}),
      });
      delete holder[key];
    } else visit(child, place);
  }
  return found;
}
