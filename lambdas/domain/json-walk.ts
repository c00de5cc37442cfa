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

/** Keys that could poison an object's prototype if the body were ever merged into another object. */
export const isForbiddenKey = (key: string, value: unknown): boolean =>
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

/** Keys of a path kept at each end when it is written for a person; the middle of a deeper one is elided. */
const PATH_ENDS = 20;

/** A place in the walk: its key and the place holding it (shared by siblings, so the walk copies no paths). */
interface Place {
  parent?: Place;
  key: string | number;
  /** The place two levels down from the body that holds this one (itself at that depth): a list body's item. */
  item?: Place;
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
}

/**
 * Removes every forbidden key from parsed JSON (JSON.parse defines them as plain own properties; it never sets a
 * prototype), anywhere in it, and returns one entry per key removed, in document order (a removed value is not
 * searched): the JSON paths of the first `pathsFor` of each list item and of the rest of the body
 * (docs/partners.md, "Errors"; a deep one is elided in the middle), the bare key for the others, which error details
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
    for (let i = keys.length - 1; i >= 0; i--) {
      const place: Place = { parent, key: array ? Number(keys[i]) : keys[i] };
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
      });
      delete holder[key];
    } else visit(child, place);
  }
  return found;
}
