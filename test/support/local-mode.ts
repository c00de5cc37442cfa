// Local mode as a real process (bin/local.ts, or `npm start` as a newcomer runs it), in a process group of its own
// so that a test's cleanup reaches the DynamoDB Local JVM it starts too.
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { TSX_NODE_ARGS } from './tsx';
import { childRunning } from './processes';

const repo = resolve(__dirname, '..', '..');

export interface LocalMode {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  baseUrl: string;
  demoKey: string;
  /** The demo curl command it printed. */
  curl: string;
  /** The port its DynamoDB Local listens on, as it printed it (tests give LOCAL_DYNAMODB_PORT=0: no port race). */
  dbPort: number;
  exited: Promise<number | null>;
}

/**
 * Starts local mode with `env` over this process's environment and waits (at most 120 s) until it says it is
 * ready; `npm: true` runs `npm start`, otherwise bin/local.ts directly. The child goes into `started` (the test
 * file's list to stop) as soon as it is spawned, so a start that fails is stopped too.
 */
export async function startLocalMode(
  env: Record<string, string>,
  options: { npm?: boolean; started?: ChildProcess[] } = {},
): Promise<LocalMode> {
  const name = options.npm ? 'npm start' : 'local mode';
  const [command, args] = options.npm
    ? ['npm', ['start', '--silent']]
    : [process.execPath, [...TSX_NODE_ARGS, 'bin/local.ts']];
  let output = '';
  const child = spawn(command, args, {
    cwd: repo,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  options.started?.push(child);
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const deadline = Date.now() + 120_000;
  while (!/Ctrl-C stops/.test(output)) {
    if (child.exitCode !== null) throw new Error(`${name} exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`${name} not ready in 120 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const baseUrl = /listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(output)![1];
  const demoKey = /^\s+(sas_test_[0-9A-Za-z]{38})$/m.exec(output)![1];
  const curl = /^\s+(curl .+)$/m.exec(output)![1];
  const dbPort = Number(/DynamoDB Local on port (\d+)/.exec(output)![1]);
  return { child, output: () => output, baseUrl, demoKey, curl, dbPort, exited };
}

/** The DynamoDB Local JVM that local mode (pid) started: its child process running java. */
export function jvmOf(pid: number): number {
  const jvm = childRunning([pid], 'DynamoDBLocal.jar');
  if (jvm === undefined) throw new Error(`no DynamoDB Local process under pid ${pid}`);
  return jvm;
}
