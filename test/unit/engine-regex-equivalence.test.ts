// The engine's regular expressions a review found slow (quadratic on long runs) were rewritten to try fewer starts: the
// same answers as the definitions below for any text of the characters that matter to them, except a web address
// whose name runs past 63 characters (no DNS label does). The cost itself is a bench figure
// (`worst_case_engine_hostile_cpu_ms`, npm run bench -- --only=worst-case).
import fc from 'fast-check';
import { camelWords } from '../../lambdas/domain/engine/alert-text';
import { mentionsWebAddress } from '../../lambdas/domain/engine/spam-features';

const OLD_CAMEL_WORD = /[A-Za-z0-9]*[a-z0-9][A-Z][A-Za-z0-9]*/g;
const OLD_WEB_ADDRESS = /\bwww\.|\b[a-z0-9-]{2,}\.(?:com|net|org|biz|info|ly|co|me|io|uk|cc|xyz|to)\b/i;

/** camelWords as it was written with the old expression. */
function oldCamelWords(text: string): string[] {
  const words = [...text.matchAll(OLD_CAMEL_WORD)].map((m) =>
    m[0].replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2'),
  );
  return words.length ? [words.join('.\n')] : [];
}

const textOf = (alphabet: string[], maxLength: number) =>
  fc.array(fc.constantFrom(...alphabet), { maxLength }).map((cs) => cs.join(''));

it('finds the same CamelCase words as the expression tried at every start', () => {
  fc.assert(
    fc.property(textOf(['a', 'b', 'A', 'B', '0', ' ', '-', '.', '_', 'é'], 60), (text) => {
      const out: string[] = [];
      camelWords(text, 4_000, out);
      expect(out).toEqual(oldCamelWords(text));
    }),
    { numRuns: 3_000 },
  );
});

it('finds a web address where the unbounded expression does, for names of up to 63 characters', () => {
  const names = ['a', 'B', '0', '-', '_', '.', ' ', 'é', 'www', 'com', 'io', '.com', '.to', 'www.'];
  fc.assert(
    fc.property(textOf(names, 30), (text) => {
      fc.pre(!/[a-z0-9-]{64}/i.test(text));
      expect(mentionsWebAddress(text)).toBe(OLD_WEB_ADDRESS.test(text));
    }),
    { numRuns: 5_000 },
  );
});
