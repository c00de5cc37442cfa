// The language eval's sample (bin/fetch-language-sample.ts): which files it reads, and its eval and dev sentences.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sampleFiles, splitSentences } from '../../bin/fetch-language-sample';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sas-language-sample-'));
  for (const f of ['amistad.fortunes', 'off/varios.fortunes', 'es/off/camioneros.fortunes', 'es/arte.fortunes']) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), 'x\n');
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("leaves out the offensive fortunes' off/ folders (ROT13-encoded, not the language as written)", () => {
  expect(sampleFiles(dir).map((f) => path.relative(dir, f))).toEqual(['amistad.fortunes', 'es/arte.fortunes']);
});

it.each([600, 1000, 5000])('splits %i sentences into eval and dev sets that share none', (n) => {
  const found = Array.from({ length: n }, (_, i) => `sentence ${i}`);
  const split = splitSentences(found);
  expect(split.eval.length).toBe(300);
  expect(split.dev.length).toBe(300);
  const evalSet = new Set(split.eval);
  expect(split.dev.filter((s) => evalSet.has(s))).toEqual([]);
  // Both span the whole list, not its opening only.
  expect(found.indexOf(split.dev[299])).toBeGreaterThan(n * 0.8);
});
