// Local mode's embedded database, kept alive: if DynamoDB Local dies, it is started again on the same port and data
// (requests meanwhile meet a refused connection, which the service answers with 503). Data kept in memory died
// with the process, so then local mode must stop rather than carry on over an empty database.
import {
  JavaMissingError,
  type LocalDbCredentials,
  IN_MEMORY,
  PortInUseError,
  type RunningDynamoDb,
  startDynamoDbLocal,
} from './dynamodb-local';
import { ForeignListenerError } from './listener-owner';

interface SupervisedDynamoDb {
  endpoint: string;
  port: number;
  /** The JVM serving now and, during a restart, the one starting (it may accept connections before it is ready). */
  pids(): number[];
  stop(): Promise<void>;
}

interface SupervisorOptions {
  port: number;
  dataDir: string;
  credentials: LocalDbCredentials;
  /** Lines for the person at the terminal. */
  log: (line: string) => void;
  /** The database cannot come back (in memory, or no Java any more): local mode stops with this message. */
  onFatal: (message: string) => void;
  /** Told each JVM's pid as soon as it is spawned, the first and every restart (for the data directory's lock). */
  onSpawn?: (pid: number) => void;
}

const NAME = 'the embedded database (DynamoDB Local)';
const MAX_RESTART_PAUSE_MS = 5_000;

function describeExit(exit: { code: number | null; signal: string | null }): string {
  return exit.signal ? `was killed (${exit.signal})` : `exited with status ${exit.code}`;
}

export async function superviseDynamoDbLocal(options: SupervisorOptions): Promise<SupervisedDynamoDb> {
  const { dataDir, credentials, log, onFatal } = options;
  let current: RunningDynamoDb = await startDynamoDbLocal({
    port: options.port,
    dataDir,
    credentials,
    onSpawn: options.onSpawn,
  });
  let starting: number | undefined;
  const port = current.port;
  let stopping = false;

  const restart = async () => {
    let pause = 250;
    for (let attempt = 1; !stopping; attempt++) {
      try {
        const db = await startDynamoDbLocal({
          port,
          dataDir,
          credentials,
          onSpawn: (pid) => {
            starting = pid;
            options.onSpawn?.(pid);
          },
        });
        if (stopping) return db.stop();
        current = db;
        log(`${NAME} is back on port ${port} after ${attempt} attempt${attempt === 1 ? '' : 's'}, on the same data`);
        watch(db);
        return;
      } catch (err) {
        starting = undefined; // that JVM is gone (its pid may be reused)
        if (err instanceof JavaMissingError) return onFatal(`${NAME} cannot be restarted: ${err.message}`);
        // Another process took the port while the database was down: waiting for it would keep sending it requests.
        if (err instanceof PortInUseError || err instanceof ForeignListenerError) {
          return onFatal(
            `${NAME} cannot be restarted: another process took its port ${port} while it was down, and local mode ` +
              'sends its database secret to nobody else. Stop that process (or choose another LOCAL_DYNAMODB_PORT) and run npm start again.',
          );
        }
        log(`${NAME} did not restart (${(err as Error).message.split('\n')[0]}); trying again in ${pause} ms`);
        await new Promise((r) => setTimeout(r, pause));
        pause = Math.min(pause * 2, MAX_RESTART_PAUSE_MS);
      }
    }
  };

  const watch = (db: RunningDynamoDb) => {
    void db.exited.then((exit) => {
      if (stopping || db !== current) return;
      if (dataDir === IN_MEMORY) {
        return onFatal(
          `${NAME} ${describeExit(exit)}. Its data was in memory (LOCAL_DATA_DIR=${IN_MEMORY}) and is lost, so local mode ` +
            'stops rather than serve an empty database. Run npm start again (or use a data directory to keep data).',
        );
      }
      log(
        `${NAME} ${describeExit(exit)}; restarting it on the same data in ${dataDir} (requests get 503 until it is back)`,
      );
      void restart();
    });
  };
  watch(current);

  return {
    endpoint: current.endpoint,
    port,
    pids: () => (starting === undefined ? [current.pid] : [current.pid, starting]),
    async stop() {
      stopping = true;
      await current.stop();
    },
  };
}
