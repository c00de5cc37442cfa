// Local mode's embedded database as one piece: its secret (from the data directory, or fresh for `:memory:`), the data
// directory's lock (data-dir-lock.ts), DynamoDB Local under supervision, and the port record through which the admin
// CLI finds it.
import { relative } from 'node:path';
import { type LocalDbCredentials, ephemeralCredentials, prepareDataDir } from './credentials';
import { type DataDirLock, lockDataDir } from './data-dir-lock';
import { IN_MEMORY, type LocalConnection, NO_WEB_ORIGIN, localConnection } from './dynamodb-local';
import { OwnedListenerAgent } from './listener-owner';
import { removePortRecord, writePortRecord } from './port-record';
import { superviseDynamoDbLocal } from './supervisor';

interface EmbeddedDatabase extends LocalConnection {
  port: number;
  /** What to tell the person at the terminal about how the data is protected. */
  notices: string[];
  stop(): Promise<void>;
}

export async function startEmbeddedDatabase(options: {
  port: number;
  dataDir: string;
  region: string;
  log: (line: string) => void;
  onFatal: (message: string) => void;
}): Promise<EmbeddedDatabase> {
  const { dataDir } = options;
  const notices: string[] = [];
  let credentials: LocalDbCredentials;
  if (dataDir === IN_MEMORY) {
    credentials = ephemeralCredentials(options.region);
    notices.push('its database is opened by a secret access key id made for this run only');
  } else {
    const prepared = prepareDataDir(dataDir, options.region);
    credentials = prepared.credentials;
    const rel = relative(process.cwd(), prepared.credentialsFile);
    const shown = rel && !rel.startsWith('..') ? rel : prepared.credentialsFile;
    notices.push(
      `its database is opened by a secret access key id ${prepared.created ? 'made now and ' : ''}kept in ${shown} ` +
        '(mode 0600, in a directory only you can enter)',
      ...prepared.notices,
    );
  }
  notices.push(
    'DynamoDB Local listens on every network interface; without that id another machine or user reaches only an empty database',
    `telemetry to AWS is off; CORS allows only ${NO_WEB_ORIGIN}, so no web page can read its answers`,
  );

  // One database per data directory: a leftover of a local mode killed without stopping it is stopped first.
  const lock: DataDirLock | undefined = dataDir === IN_MEMORY ? undefined : await lockDataDir(dataDir, options.log);
  let db: Awaited<ReturnType<typeof superviseDynamoDbLocal>>;
  try {
    db = await superviseDynamoDbLocal({ ...options, credentials, onSpawn: (pid) => lock?.recordDatabase(pid) });
  } catch (err) {
    lock?.release();
    throw err;
  }
  // Every connection the service opens is checked to have been accepted by our JVM (see listener-owner.ts).
  const httpAgent = new OwnedListenerAgent(
    db.port,
    () => db.pids(),
    (err) => options.onFatal(err.message),
  );
  if (lock) lock.recordDatabase(db.pids()[0], db.port);
  const record = { ...credentials, port: db.port, pid: process.pid, dataDir };
  try {
    writePortRecord(record);
  } catch (err) {
    await db.stop();
    lock?.release();
    throw err;
  }
  return {
    port: db.port,
    ...localConnection(db.endpoint, credentials, httpAgent),
    notices,
    async stop() {
      removePortRecord(db.port);
      await db.stop();
      lock?.release();
    },
  };
}
