// The engine reads its first-word index as its module loads and throws when the index was built from another lexicon
// (a lexicon edit that changed the phrase count, before `npm run lexicon:index`). Every bin entry that loads the engine
// checks the index before that load, so a lag stops it with one line naming the command, never with a stack trace.
// Run on a copy of the sources whose index lags: the repository's own file stays as it is.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TSX_NODE_ARGS } from '../support/tsx';

const ROOT = path.resolve(__dirname, '../..');
const INDEX = 'lambdas/domain/engine/lexicon-index.json';
const MESSAGE = 'lambdas/domain/engine/lexicon-index.json lags the lexicon: run `npm run lexicon:index`';

let copy: string;

beforeAll(() => {
  copy = mkdtempSync(path.join(tmpdir(), 'sas-lexicon-lag-'));
  for (const entry of ['bin', 'lambdas', 'lib', 'sdk', 'package.json', 'tsconfig.json'])
    cpSync(path.join(ROOT, entry), path.join(copy, entry), {
      recursive: true,
      filter: (source) => !source.includes(`${path.sep}node_modules`),
    });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  // What a lexicon edit that adds a phrase leaves behind: an index one pattern short of the lexicon's.
  const index = JSON.parse(readFileSync(path.join(ROOT, INDEX), 'utf8')) as { patterns: number };
  writeFileSync(path.join(copy, INDEX), `${JSON.stringify({ ...index, patterns: index.patterns - 1 })}\n`);
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

// `npm run eval`, `npm run eval:learning` and a trainer run as its docs say (`node --import tsx bin/<trainer>.ts`).
it.each(['bin/eval/main.ts', 'bin/eval-learning.ts', 'bin/train-confidence.ts', 'bin/fit-warm-gate.ts'])(
  '%s stops with the message naming the command, and no stack trace',
  (entry) => {
    const run = spawnSync(process.execPath, [...TSX_NODE_ARGS, entry], {
      cwd: copy,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, SAS_DATA_DIR: path.join(copy, 'no-data') },
    });
    expect(run.stderr.trim()).toBe(MESSAGE);
    expect(run.status).toBe(2);
  },
);
