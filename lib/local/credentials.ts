// The secret that keeps the embedded database's data to local mode and the admin CLI. DynamoDB Local listens on every
// interface and answers any credentials, but without -sharedDb it keeps one database per access key id and region:
// whoever does not know the id reaches only an empty database of their own. So each data directory gets an id drawn
// from a CSPRNG, kept in a file only its owner can read, in a directory only its owner can enter.
import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { AWS_REGION_PATTERN } from '../../lambdas/contract/settings';

export interface LocalDbCredentials {
  /** The secret: it names the database inside DynamoDB Local. */
  accessKeyId: string;
  /** The region is part of the database's name too; kept with the id so a changed AWS_REGION cannot hide the data. */
  region: string;
}

export const CREDENTIALS_FILE = 'dynamodb-credentials.json';
/** The file DynamoDB Local used with -sharedDb (earlier versions of local mode): migrated on first start. */
export const SHARED_DB_FILE = 'shared-local-instance.db';

// Lower case and digits only: DynamoDB Local accepts only letters and digits, and ids differing only in case would
// name the same file on a case-insensitive file system. 40 of 36 symbols is about 206 bits.
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const ID_LENGTH = 40;
// The largest multiple of 36 below 256: bytes from 252 up are dropped so that every symbol is equally likely.
const UNBIASED_LIMIT = 252;
export const ACCESS_KEY_ID_PATTERN = /^[a-z0-9]{40}$/;

type RandomBytes = (size: number) => Uint8Array;

/** A fresh secret access key id from the given source of random bytes (node:crypto's CSPRNG unless a test says otherwise). */
export function generateAccessKeyId(randomBytes: RandomBytes = cryptoRandomBytes): string {
  let id = '';
  while (id.length < ID_LENGTH) {
    for (const byte of randomBytes(ID_LENGTH * 2)) {
      if (byte < UNBIASED_LIMIT && id.length < ID_LENGTH) id += ALPHABET[byte % ALPHABET.length];
    }
  }
  return id;
}

/** Local credentials went wrong in a way the user must fix (a file or directory that is not theirs, a broken file). */
export class LocalCredentialsError extends Error {
  override readonly name = 'LocalCredentialsError';
}

const uid = (): number | undefined => process.getuid?.();

/** Refuses a path another user owns; removes group and other access from one we own. Returns whether it tightened. */
function ownAndPrivate(path: string, mode: number, what: string): boolean {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) throw new LocalCredentialsError(`${what} ${path} is a symbolic link; refusing to use it`);
  const me = uid();
  if (me !== undefined && st.uid !== me)
    throw new LocalCredentialsError(`${what} ${path} belongs to another user (uid ${st.uid}); refusing to use it`);
  if ((st.mode & 0o077) === 0) return false;
  chmodSync(path, mode);
  return true;
}

/** Creates `dir` (mode 0700) if needed, or makes an existing one private to its owner. */
export function ensurePrivateDir(dir: string, what: string): { tightened: boolean } {
  const notADirectory = () => new LocalCredentialsError(`${what} ${dir} is not a directory`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    // A file in its place (EEXIST) or on its path (ENOTDIR): `what` names the variable to change.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') throw notADirectory();
    throw err;
  }
  if (!lstatSync(dir).isDirectory()) throw notADirectory();
  return { tightened: ownAndPrivate(dir, 0o700, what) };
}

function parseCredentials(text: string, path: string): LocalDbCredentials {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LocalCredentialsError(
      `${path} is not valid JSON: delete it only if you accept losing access to the data beside it`,
    );
  }
  const { accessKeyId, region } = (parsed ?? {}) as Partial<LocalDbCredentials>;
  if (
    typeof accessKeyId !== 'string' ||
    !ACCESS_KEY_ID_PATTERN.test(accessKeyId) ||
    typeof region !== 'string' ||
    !AWS_REGION_PATTERN.test(region)
  ) {
    throw new LocalCredentialsError(`${path} does not hold an access key id and region as local mode writes them`);
  }
  return { accessKeyId, region };
}

/** Writes a new file readable by its owner only; fails with EEXIST if it is already there (so two starters agree). */
export function writePrivateFileExclusive(path: string, text: string): void {
  writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
}

interface PreparedDataDir {
  credentials: LocalDbCredentials;
  credentialsFile: string;
  created: boolean;
  /** Things the user should be told once (a tightened mode, migrated data). */
  notices: string[];
}

/**
 * The data directory, private to its owner, and its credentials: read from CREDENTIALS_FILE, or made on first use with
 * `region`. Data kept with -sharedDb by earlier versions is moved under the new id, so nothing stored is lost.
 */
export function prepareDataDir(dataDir: string, region: string): PreparedDataDir {
  const dir = resolve(dataDir);
  const notices: string[] = [];
  if (ensurePrivateDir(dir, 'data directory (LOCAL_DATA_DIR)').tightened)
    notices.push(`made ${dir} private to its owner (mode 0700)`);
  const file = join(dir, CREDENTIALS_FILE);
  let credentials: LocalDbCredentials;
  let created = false;
  if (existsSync(file)) {
    if (ownAndPrivate(file, 0o600, 'credentials file'))
      notices.push(`made ${file} readable by its owner only (mode 0600)`);
    credentials = parseCredentials(readFileSync(file, 'utf8'), file);
  } else {
    const fresh: LocalDbCredentials = { accessKeyId: generateAccessKeyId(), region };
    try {
      writePrivateFileExclusive(file, `${JSON.stringify(fresh)}\n`);
      credentials = fresh;
      created = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      credentials = parseCredentials(readFileSync(file, 'utf8'), file); // another process made it first
    }
    const shared = join(dir, SHARED_DB_FILE);
    const own = join(dir, databaseFileName(credentials));
    if (created && existsSync(shared) && !existsSync(own)) {
      renameSync(shared, own);
      notices.push(`moved the data kept by an earlier version (${SHARED_DB_FILE}) under this directory's secret id`);
    }
  }
  // Database files written before the directory was private (or by an earlier version) get the file's mode too.
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.db')) ownAndPrivate(join(dir, name), 0o600, 'database file');
  }
  return { credentials, credentialsFile: file, created, notices };
}

/** The file DynamoDB Local keeps a database in, without -sharedDb. */
export const databaseFileName = (c: LocalDbCredentials): string => `${c.accessKeyId}_${c.region}.db`;

/** Credentials for a database that lives as long as one process (`:memory:`, the bench, the load tool). */
export function ephemeralCredentials(region: string): LocalDbCredentials {
  return { accessKeyId: generateAccessKeyId(), region };
}
