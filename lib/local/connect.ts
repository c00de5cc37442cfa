// How the admin CLI reaches local mode's data: the database `npm start` runs on the port (found through its port
// record), or, when nothing runs there, a DynamoDB Local of its own on the data directory for one command.
import { prepareDataDir } from './credentials';
import { lockDataDir } from './data-dir-lock';
import {
  IN_MEMORY,
  type LocalConnection,
  dynamoDbAnswers,
  localConnection,
  startDynamoDbLocal,
} from './dynamodb-local';
import { OwnedListenerAgent, childrenOf } from './listener-owner';
import { readPortRecord, runtimeDir } from './port-record';

/** The client's agent checks that the database on the port is local mode's (or ours) before the secret goes. */
interface LocalDatabase extends LocalConnection {
  /** Set when this call started the database: stops it. */
  stop?: () => Promise<void>;
}

export async function openLocalDatabase(options: {
  port: number;
  dataDir: string;
  region: string;
}): Promise<LocalDatabase> {
  const { port, dataDir } = options;
  const endpoint = `http://127.0.0.1:${port}`;
  // A live record means local mode runs there (its owner is alive): use it, even if the database is slow right now.
  const record = readPortRecord(port);
  if (record) {
    // The JVM that local mode started is its child: a process that took the port while it was down is not.
    const httpAgent = new OwnedListenerAgent(port, () => childrenOf(record.pid));
    return localConnection(endpoint, { accessKeyId: record.accessKeyId, region: record.region }, httpAgent);
  }
  // Without a record, the data directory's secret is never sent to whatever answers on the port.
  if (await dynamoDbAnswers(endpoint, 3_000)) {
    throw new Error(
      `something answers on port ${port}, but local mode keeps no record of its database there (looked in ${runtimeDir()}). ` +
        'Start local mode with `npm start`, or set LOCAL_DYNAMODB_PORT to the port it printed.',
    );
  }
  if (dataDir === IN_MEMORY)
    throw new Error(`no DynamoDB Local answers on ${endpoint}: start local mode with \`npm start\` first`);
  const { credentials } = prepareDataDir(dataDir, options.region);
  // The data directory's lock, as local mode takes it (data-dir-lock.ts): a local mode running on another port is
  // named instead of opened twice, and a database a killed local mode left is stopped first.
  const lock = await lockDataDir(dataDir, (line) => console.error(line));
  try {
    const db = await startDynamoDbLocal({
      port,
      dataDir,
      credentials,
      onSpawn: (pid) => lock.recordDatabase(pid, port),
    });
    return {
      clientOptions: db.clientOptions,
      settings: db.settings,
      stop: async () => {
        await db.stop();
        lock.release();
      },
    };
  } catch (err) {
    lock.release();
    throw err;
  }
}
