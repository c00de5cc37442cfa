// Walks over parsed JSON with an explicit stack instead of recursion: a body of 1 MiB can nest 500,000 levels deep,
// far past the call stack, and these walks run before (or whatever) validation says about the body.

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

/**
 * Removes every forbidden key from parsed JSON (JSON.parse defines them as plain own properties; it never sets a
 * prototype), anywhere in it, and returns their names, the ones inside a removed value included.
 */
export function dropForbiddenKeys(value: unknown): string[] {
  const found: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length) {
    const next = stack.pop();
    if (next === null || typeof next !== 'object') continue;
    const record = next as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (child !== null && typeof child === 'object') stack.push(child);
      if (isForbiddenKey(key, child)) {
        found.push(key);
        delete record[key];
      }
    }
  }
  return found;
}
