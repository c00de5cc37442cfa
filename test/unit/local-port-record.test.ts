// The record through which the admin CLI finds local mode's database on a port: private, and only while its owner lives.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPortRecord, removePortRecord, runtimeDir, writePortRecord } from '../../lib/local/port-record';

const saved = process.env.XDG_RUNTIME_DIR;
let runtime: string;
beforeEach(() => {
  // A private directory standing in for $XDG_RUNTIME_DIR, so the test leaves the real one alone.
  runtime = mkdtempSync(join(tmpdir(), 'sas-runtime-'));
  chmodSync(runtime, 0o700);
  process.env.XDG_RUNTIME_DIR = runtime;
});
afterEach(() => {
  if (saved === undefined) delete process.env.XDG_RUNTIME_DIR;
  else process.env.XDG_RUNTIME_DIR = saved;
  rmSync(runtime, { recursive: true, force: true });
});

const record = (port: number, pid = process.pid) => ({
  accessKeyId: 'a'.repeat(40),
  region: 'us-east-1',
  port,
  pid,
  dataDir: '/data',
});

it('is written readable by its owner only, in a directory only its owner can enter, and read back', () => {
  const path = writePortRecord(record(8123));
  expect(runtimeDir()).toBe(join(runtime, 'signal-analysis-service'));
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(statSync(runtimeDir()).mode & 0o777).toBe(0o700);
  expect(readPortRecord(8123)).toEqual(record(8123));
  expect(readPortRecord(8124)).toBeUndefined();
  expect(readdirSync(runtimeDir())).toEqual(['dynamodb-8123.json']); // no temporary file left behind
});

it('is ignored once the process that wrote it has exited, and removed only by that process', () => {
  const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  const deadPid = Number(exited.stdout);
  writePortRecord(record(8125, deadPid));
  expect(readPortRecord(8125)).toBeUndefined();

  writePortRecord(record(8126));
  removePortRecord(8126, process.pid + 1);
  expect(readPortRecord(8126)).toBeDefined();
  removePortRecord(8126);
  expect(readPortRecord(8126)).toBeUndefined();
});

it('refuses a record that others could read or change', () => {
  const path = writePortRecord(record(8127));
  chmodSync(path, 0o644);
  expect(() => readPortRecord(8127)).toThrow(/not a private file/);
});

it('does not use a runtime directory that others can enter', () => {
  chmodSync(runtime, 0o755);
  expect(runtimeDir()).not.toContain(runtime);
});
