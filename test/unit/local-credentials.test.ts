// The secret that keeps the embedded database's data to local mode: where it comes from, how it is stored, and that
// a data directory keeps its secret (and its data) across starts.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ACCESS_KEY_ID_PATTERN,
  CREDENTIALS_FILE,
  LocalCredentialsError,
  SHARED_DB_FILE,
  databaseFileName,
  generateAccessKeyId,
  prepareDataDir,
} from '../../lib/local/credentials';
import { mulberry32 } from '../../bin/seeded-random';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sas-cred-'));
});
afterEach(() => {
  jest.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

const mode = (path: string) => statSync(path).mode & 0o777;

describe('generateAccessKeyId', () => {
  it('is made only from the bytes of its random source, never from Math.random', () => {
    jest.spyOn(Math, 'random').mockImplementation(() => {
      throw new Error('Math.random is not a CSPRNG');
    });
    // A source that hands out 0, 1, 2, ...: the id is the alphabet in order, so nothing else fed it.
    let next = 0;
    const counting = (size: number) => Uint8Array.from({ length: size }, () => next++ % 256);
    expect(generateAccessKeyId(counting)).toBe('abcdefghijklmnopqrstuvwxyz0123456789abcd');
    expect(ACCESS_KEY_ID_PATTERN.test(generateAccessKeyId())).toBe(true);
  });

  it('drops the bytes that would favour some symbols', () => {
    // 252..255 would map to a, b, c, d a second time: they are skipped, not folded in.
    const source = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i % 2 === 0 ? 255 : 37));
    expect(generateAccessKeyId(source)).toBe('b'.repeat(40));
  });

  it('gives ids that differ every time and use the whole alphabet evenly', () => {
    // Seeded bytes, so the verdict is the same on every run: the test is of the mapping from bytes to symbols (the
    // test above shows the default source is crypto.randomBytes).
    const seed = 20261126;
    const next = mulberry32(seed);
    const source = (size: number) => Uint8Array.from({ length: size }, () => Math.floor(next() * 256));
    const ids = Array.from({ length: 2_000 }, () => generateAccessKeyId(source));
    expect(new Set(ids).size).toBe(ids.length);
    const counts = new Map<string, number>();
    for (const ch of ids.join('')) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(36);
    // 80,000 symbols over 36: about 2,222 each; a biased mapping (byte % 36 without the cut at 252) lands far above
    // 80 (35 degrees of freedom).
    const expected = (ids.length * 40) / 36;
    const chiSquare = [...counts.values()].reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    expect({ seed, chiSquare: chiSquare < 80 }).toEqual({ seed, chiSquare: true });
  });
});

describe('prepareDataDir', () => {
  it('makes the directory 0700 and the credentials file 0600, and keeps the same secret across starts', () => {
    const dir = join(root, 'data');
    const first = prepareDataDir(dir, 'us-east-1');
    expect(first.created).toBe(true);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, CREDENTIALS_FILE))).toBe(0o600);
    expect(ACCESS_KEY_ID_PATTERN.test(first.credentials.accessKeyId)).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, CREDENTIALS_FILE), 'utf8'))).toEqual(first.credentials);

    // A later start, even with another AWS_REGION, opens the same database.
    const second = prepareDataDir(dir, 'eu-west-1');
    expect(second.created).toBe(false);
    expect(second.credentials).toEqual(first.credentials);
  });

  it('gives different data directories different secrets', () => {
    const a = prepareDataDir(join(root, 'a'), 'us-east-1').credentials.accessKeyId;
    const b = prepareDataDir(join(root, 'b'), 'us-east-1').credentials.accessKeyId;
    expect(a).not.toBe(b);
  });

  it('makes an existing directory, credentials file and database files private again, and says so', () => {
    const dir = join(root, 'open');
    prepareDataDir(dir, 'us-east-1');
    const db = join(dir, 'old_us-east-1.db');
    writeFileSync(db, 'x');
    chmodSync(db, 0o644);
    chmodSync(dir, 0o755);
    chmodSync(join(dir, CREDENTIALS_FILE), 0o644);
    const again = prepareDataDir(dir, 'us-east-1');
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, CREDENTIALS_FILE))).toBe(0o600);
    expect(mode(db)).toBe(0o600);
    expect(again.notices.join('\n')).toMatch(/private to its owner[\s\S]*readable by its owner only/);
  });

  it('moves data kept by the shared database of earlier versions under the new secret, losing nothing', () => {
    const dir = join(root, 'old');
    mkdirSync(dir);
    writeFileSync(join(dir, SHARED_DB_FILE), 'the old tables');
    const prepared = prepareDataDir(dir, 'us-east-1');
    expect(existsSync(join(dir, SHARED_DB_FILE))).toBe(false);
    expect(readFileSync(join(dir, databaseFileName(prepared.credentials)), 'utf8')).toBe('the old tables');
    expect(prepared.notices.join('\n')).toMatch(/moved the data kept by an earlier version/);
  });

  it('refuses a credentials file it did not write rather than start over (which would hide the data)', () => {
    const dir = join(root, 'broken');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, CREDENTIALS_FILE), '{"accessKeyId":"short","region":"us-east-1"}', { mode: 0o600 });
    expect(() => prepareDataDir(dir, 'us-east-1')).toThrow(LocalCredentialsError);
    writeFileSync(join(dir, CREDENTIALS_FILE), 'not json');
    expect(() => prepareDataDir(dir, 'us-east-1')).toThrow(/not valid JSON/);
  });

  it('says that LOCAL_DATA_DIR names a file, in its place or on its path, rather than a raw EEXIST or ENOTDIR', () => {
    const file = join(root, 'notes.txt');
    writeFileSync(file, 'x');
    for (const dir of [file, join(file, 'data')])
      expect(() => prepareDataDir(dir, 'us-east-1')).toThrow(
        new LocalCredentialsError(`data directory (LOCAL_DATA_DIR) ${dir} is not a directory`),
      );
  });
});
