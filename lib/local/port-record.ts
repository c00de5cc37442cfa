// Which credentials open the embedded database on a given port: local mode writes a record per port while it runs, so
// the admin CLI finds the database that `npm start` serves even when it was started on another LOCAL_DATA_DIR or in
// memory. Records live in a directory private to the user ($XDG_RUNTIME_DIR, or one of our own in the temp dir).
import { existsSync, lstatSync, readFileSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from './parent-watch';
import {
  type LocalDbCredentials,
  LocalCredentialsError,
  ensurePrivateDir,
  writePrivateFileExclusive,
} from './credentials';

interface PortRecord extends LocalDbCredentials {
  port: number;
  /** The process that owns the database (local mode); a record whose owner is gone is stale. */
  pid: number;
  dataDir: string;
}

const APP_DIR = 'signal-analysis-service';

/** Where port records live: private to this user; refused when it is not. */
export function runtimeDir(): string {
  const xdg = process.env.XDG_RUNTIME_DIR;
  if (xdg && existsSync(xdg)) {
    const st = lstatSync(xdg);
    if (st.isDirectory() && (st.mode & 0o077) === 0 && st.uid === process.getuid?.()) return join(xdg, APP_DIR);
  }
  const uid = process.getuid?.() ?? 'user';
  return join(tmpdir(), `${APP_DIR}-${uid}`);
}

const recordPath = (port: number, dir = runtimeDir()) => join(dir, `dynamodb-${port}.json`);

/** Records the credentials for `port` (mode 0600, replaced atomically). */
export function writePortRecord(record: PortRecord): string {
  const dir = runtimeDir();
  ensurePrivateDir(dir, 'runtime directory');
  const path = recordPath(record.port, dir);
  const temp = `${path}.${process.pid}.tmp`;
  rmSync(temp, { force: true }); // a leftover of a process that had this pid
  writePrivateFileExclusive(temp, `${JSON.stringify(record)}\n`);
  renameSync(temp, path);
  return path;
}

/** The live record for `port`, or undefined when there is none or its owner has exited. */
export function readPortRecord(port: number): PortRecord | undefined {
  const dir = runtimeDir();
  const path = recordPath(port, dir);
  if (!existsSync(path)) return undefined;
  ensurePrivateDir(dir, 'runtime directory');
  const st = lstatSync(path);
  if (!st.isFile() || st.uid !== process.getuid?.() || (st.mode & 0o077) !== 0) {
    throw new LocalCredentialsError(`${path} is not a private file of this user; refusing to use it`);
  }
  let record: PortRecord;
  try {
    record = JSON.parse(readFileSync(path, 'utf8')) as PortRecord;
  } catch {
    return undefined;
  }
  if (record.port !== port || !/^[A-Za-z0-9]{1,128}$/.test(String(record.accessKeyId)) || !processAlive(record.pid))
    return undefined;
  return record;
}

/** Removes the record for `port` if this process wrote it. */
export function removePortRecord(port: number, pid = process.pid): void {
  const path = recordPath(port);
  try {
    const record = JSON.parse(readFileSync(path, 'utf8')) as PortRecord;
    if (record.pid === pid) unlinkSync(path);
  } catch {
    // already gone
  }
}
