// Two starts on one data directory after a `kill -9` both find the dead owner's lock. The one that takes it over
// second must not remove the lock the first has written meanwhile: two DynamoDB Local JVMs would open the same files.
// The interleaving is made at the one point where a takeover waits (stopping the leftover database), with stand-in
// processes: a "leftover database" (a Node.js process whose command line reads as DynamoDB Local on the directory, which the
// takeover stops) and a "first start" (a live process the fresh lock names).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DataDirInUseError,
  LOCK_FILE,
  type LockRecord,
  lockDataDir,
  processStart,
} from '../../lib/local/data-dir-lock';

let dir: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sas-lock-race-'));
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A live process of this user; `argv0` and `args` shape its /proc/<pid>/cmdline. */
async function live(argv0: string, args: string[]): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)', '--', ...args], {
    argv0,
    stdio: 'ignore',
  });
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  // Until the shell runs, /proc may still show the parent's command line.
  for (let i = 0; i < 100 && !readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').startsWith(argv0); i++)
    await new Promise((r) => setTimeout(r, 20));
  return child.pid!;
}

const lockFile = () => join(dir, LOCK_FILE);
const writeLock = (record: LockRecord) => writeFileSync(lockFile(), `${JSON.stringify(record)}\n`);

it('a takeover does not remove the lock another start wrote while it stopped the leftover database', async () => {
  // The dead owner's lock, naming a leftover database that still serves the directory.
  const leftover = await live('java', ['-jar', 'DynamoDBLocal.jar', '-dbPath', dir]);
  writeLock({ pid: 2 ** 22 + 1, dbPath: dir, databasePid: leftover, startedAt: '2026-11-29T00:00:00.000Z' });
  const firstStart = await live('node', ['bin/local.ts']);
  const fresh: LockRecord = { pid: firstStart, pidStart: processStart(firstStart), dbPath: dir, startedAt: 'now' };

  // While this start stops the leftover, the other start has finished its takeover: its lock is in place.
  const taken = lockDataDir(dir, () => {
    rmSync(lockFile());
    writeLock(fresh);
  });
  await expect(taken).rejects.toBeInstanceOf(DataDirInUseError);
  await expect(taken).rejects.toThrow(`pid ${firstStart}`);
  expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toEqual(fresh);
});

it('still takes over the lock of a local mode that is gone', async () => {
  const leftover = await live('java', ['-jar', 'DynamoDBLocal.jar', '-dbPath', dir]);
  writeLock({ pid: 2 ** 22 + 1, dbPath: dir, databasePid: leftover, startedAt: '2026-11-29T00:00:00.000Z' });
  const lines: string[] = [];
  const lock = await lockDataDir(dir, (line) => lines.push(line));
  expect(lines.join('\n')).toContain(`DynamoDB Local pid ${leftover}`);
  expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid });
  lock.release();
});
