// One database per data directory. Local mode holds a lock file in its data directory for as long as it runs, naming
// itself and the DynamoDB Local process it started. A `kill -9` of local mode leaves the JVM running (its parent
// becomes pid 1) with the data open; the next start finds the lock of a process that is gone, checks that the JVM it
// names (or any other) is DynamoDB Local on this very -dbPath and ours, and stops it before starting its own. A
// database it cannot stop, or a local mode still running, is named and the start refused: two JVMs never open one
// directory's files (DynamoDB Local's SQLite files are not made for two writers, and each would serve its own view).
import { linkSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writePrivateFileExclusive } from './credentials';
import { sleep } from '../../lambdas/domain/retry';
import { processAlive, procStat } from './parent-watch';

export const LOCK_FILE = 'local-mode.lock';

export interface LockRecord {
  /** Local mode's own process. */
  pid: number;
  /** When that process started (/proc/<pid>/stat), so that a pid reused by another process is not taken for it. */
  pidStart?: string;
  /** The DynamoDB Local JVM it runs now (absent until spawned), and its port. */
  databasePid?: number;
  databasePort?: number;
  /** The data directory as given to DynamoDB Local (-dbPath). */
  dbPath: string;
  startedAt: string;
}

/** Another local mode (or a database we may not stop) has the data directory. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

const cmdline = (pid: number): string[] => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
};

const ownedByMe = (pid: number): boolean => {
  try {
    return statSync(`/proc/${pid}`).uid === process.getuid?.();
  } catch {
    return false;
  }
};

/** Whether `pid` is a DynamoDB Local JVM of this user serving `dbPath` (argument `-dbPath <dbPath>`). */
function isDatabaseOn(pid: number, dbPath: string): boolean {
  const args = cmdline(pid);
  const at = args.indexOf('-dbPath');
  return (
    ownedByMe(pid) &&
    /(^|\/)java$/.test(args[0] ?? '') &&
    args.some((a) => a.endsWith('DynamoDBLocal.jar')) &&
    at >= 0 &&
    args[at + 1] === dbPath
  );
}

/** Every DynamoDB Local JVM of this user on `dbPath` (Linux: /proc; elsewhere none can be found). */
function databasesOn(dbPath: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((pid) => isDatabaseOn(pid, dbPath));
}

/** Whether `pid` is a local mode process: Node.js running bin/local.ts (directly, or through npm start). */
function isLocalMode(pid: number): boolean {
  return cmdline(pid).some((a) => /(^|\/)local\.ts$/.test(a));
}

/** A process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat); undefined without /proc. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the lock's owner still runs: the same pid, started at the same time. */
const ownerRuns = (held: LockRecord): boolean =>
  processAlive(held.pid) && (held.pidStart === undefined || processStart(held.pid) === held.pidStart);

function readLock(file: string): LockRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as LockRecord;
    return Number.isInteger(record.pid) ? record : undefined;
  } catch {
    return undefined; // gone, or half-written by a process killed while writing
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
async function stopProcess(pid: number, graceMs = 5_000): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(pid, s);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (processAlive(pid) && procStat(pid) !== undefined) {
    if (Date.now() > deadline) {
      signal('SIGKILL');
      break;
    }
    await sleep(50);
  }
  // SIGKILL'd: wait for the kernel to reap it (its parent is init, which does so at once).
  const hard = Date.now() + 5_000;
  while (procStat(pid) !== undefined && Date.now() < hard) await sleep(50);
}

export interface DataDirLock {
  /** Records the JVM now serving the directory (after a start or a supervisor's restart), and its port. */
  recordDatabase(pid: number, port?: number): void;
  release(): void;
}

/**
 * Takes the data directory for this process. A lock left by a local mode that is gone is taken over, after stopping
 * every DynamoDB Local of ours still serving the directory (told through `log`); a live owner is refused with
 * DataDirInUseError, naming it.
 */
export async function lockDataDir(dataDir: string, log: (line: string) => void): Promise<DataDirLock> {
  const dbPath = resolve(dataDir);
  const file = join(dbPath, LOCK_FILE);
  const mine: LockRecord = {
    pid: process.pid,
    pidStart: processStart(process.pid),
    dbPath,
    startedAt: new Date().toISOString(),
  };
  const write = (record: LockRecord) => {
    const temp = `${file}.${process.pid}.tmp`;
    rmSync(temp, { force: true });
    writePrivateFileExclusive(temp, `${JSON.stringify(record)}\n`);
    renameSync(temp, file);
  };

  for (let attempt = 0; ; attempt++) {
    try {
      writePrivateFileExclusive(file, `${JSON.stringify(mine)}\n`);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 4) throw err;
    }
    const held = readLock(file);
    // Unreadable: perhaps another start created it a moment ago and is still writing it. Look again before taking
    // it for the leftover of a process killed while writing.
    if (!held && attempt < 2) {
      await sleep(250);
      continue;
    }
    if (held && held.pid !== process.pid && ownerRuns(held)) {
      const port = held.databasePort ? ` on port ${held.databasePort}` : '';
      throw new DataDirInUseError(
        `the data directory ${dbPath} is in use by local mode or the admin CLI (pid ${held.pid}` +
          `${held.databasePid ? `, DynamoDB Local pid ${held.databasePid}${port}` : ''}, since ${held.startedAt}). ` +
          `Stop it (Ctrl-C there, or kill ${held.pid}), or choose another LOCAL_DATA_DIR` +
          `${held.databasePort ? `; the admin CLI reaches it with LOCAL_DYNAMODB_PORT=${held.databasePort}` : ''}.`,
      );
    }
    // The owner is gone: stop what it left serving this directory. The recorded JVM first, then any other of ours
    // on the same -dbPath (one started during a restart before it was recorded).
    const leftovers = new Set<number>(databasesOn(dbPath));
    if (held?.databasePid && isDatabaseOn(held.databasePid, dbPath)) leftovers.add(held.databasePid);
    for (const pid of leftovers) {
      // One the lock does not name, run by a live local mode: that is someone's running database, not a leftover.
      const parent = procStat(pid)?.ppid;
      if (pid !== held?.databasePid && parent !== undefined && parent > 1 && isLocalMode(parent)) {
        throw new DataDirInUseError(
          `DynamoDB Local (pid ${pid}) serves the data directory ${dbPath} for local mode pid ${parent}, which ` +
            `holds no lock on it. Stop it (kill ${parent}), or choose another LOCAL_DATA_DIR.`,
        );
      }
      log(
        `stopping the embedded database left running on ${dbPath} by an earlier local mode` +
          `${held ? ` (pid ${held.pid}, ended without stopping it)` : ''}: DynamoDB Local pid ${pid}`,
      );
      await stopProcess(pid);
      if (processAlive(pid) && isDatabaseOn(pid, dbPath)) {
        throw new DataDirInUseError(
          `DynamoDB Local (pid ${pid}), left running on ${dbPath} by an earlier local mode, did not stop. ` +
            `Stop it (kill -9 ${pid}) and start again.`,
        );
      }
    }
    // Take the stale lock over: move it aside, and only if it is still the one read above (another start may have
    // taken it over meanwhile and written its own) remove it; then create ours exclusively, so two starts cannot both
    // win. Another's lock is put back (a link never replaces a file) and the next attempt names its owner.
    const aside = `${file}.${process.pid}.stale`;
    try {
      renameSync(file, aside);
    } catch {
      continue; // another start removed it first; the exclusive create decides
    }
    const moved = readLock(aside);
    if (moved && !(held && moved.pid === held.pid && moved.startedAt === held.startedAt)) {
      try {
        linkSync(aside, file);
      } catch {
        // a lock was created meanwhile: that one decides
      }
    }
    rmSync(aside, { force: true });
  }

  let current = mine;
  return {
    recordDatabase(pid: number, port?: number) {
      current = { ...current, databasePid: pid, ...(port ? { databasePort: port } : {}) };
      write(current);
    },
    release() {
      if (readLock(file)?.pid === process.pid) rmSync(file, { force: true });
    },
  };
}
