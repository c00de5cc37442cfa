// Who is at the other end of a connection to the embedded database. Its secret access key id travels in every signed
// request, and the port is free for any local process to bind while DynamoDB Local is down (it died, or it is still
// starting): so each connection is handed to the DynamoDB client only once the socket that accepted it is known to
// belong to our own DynamoDB Local process. On Linux, /proc/net/tcp{,6} names the inode of the accepting socket and
// /proc/<pid>/fd says which process holds it; elsewhere `lsof` names the process listening on the port; where neither
// is available, the check is skipped with a warning (the data directory's secret then relies on the port alone).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { Agent, type ClientRequestArgs } from 'node:http';
import { type NetConnectOpts, type Socket, createConnection } from 'node:net';
import type { Duplex } from 'node:stream';
import { procStat } from './parent-watch';

/** The database port is held by a process that is not our DynamoDB Local: nothing was sent to it. */
export class ForeignListenerError extends Error {
  override readonly name = 'ForeignListenerError';
  readonly code = 'EFOREIGNLISTENER';
}

const PROC = existsSync('/proc/net/tcp');
const LISTEN = '0A';
const ESTABLISHED = '01';

const portOf = (address: string) => parseInt(address.slice(address.indexOf(':') + 1), 16);

/** Inodes of the TCP sockets in `state` on local port `localPort` (and remote port `remotePort`, when given). */
function socketInodes(state: string, localPort: number, remotePort?: number): number[] {
  const inodes: number[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue; // no IPv6
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== state || portOf(f[1]) !== localPort) continue;
      if (remotePort !== undefined && portOf(f[2]) !== remotePort) continue;
      inodes.push(Number(f[9]));
    }
  }
  return inodes;
}

/** The socket inodes process `pid` holds (empty when it is gone or not ours to read). */
function socketsOf(pid: number): Set<number> {
  const held = new Set<number>();
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return held;
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) held.add(Number(m[1]));
    } catch {
      // closed meanwhile
    }
  }
  return held;
}

/** The processes whose parent is `pid` (the JVM local mode started runs as its child: `sh -c 'exec java'`). */
export function childrenOf(pid: number): number[] {
  if (PROC) {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry) && procStat(Number(entry))?.ppid === pid)
      .map(Number);
  }
  try {
    const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
    return out
      .split('\n')
      .map((l) => l.trim().split(/\s+/).map(Number))
      .filter(([child, parent]) => parent === pid && Number.isInteger(child))
      .map(([child]) => child);
  } catch {
    return [];
  }
}

/** The processes listening on `port` per lsof, or undefined when lsof cannot tell (not installed). */
function lsofListeners(port: number): number[] | undefined {
  try {
    const out = execFileSync('lsof', ['-nP', `-iTCP:${port}`, '-sTCP:LISTEN', '-Fp'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out
      .split('\n')
      .filter((l) => l.startsWith('p'))
      .map((l) => Number(l.slice(1)));
  } catch (err) {
    return (err as { status?: number }).status === 1 ? [] : undefined; // 1: nothing listens
  }
}

let warned = false;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Resolves when the connection `socket` (connected to `port` on this machine) was accepted by a process in `owners()`;
 * rejects with ForeignListenerError otherwise.
 */
async function verifyPeer(socket: Socket, port: number, owners: () => number[]): Promise<void> {
  const refuse = (who: string) =>
    new ForeignListenerError(
      `port ${port} is held by ${who}, not by the embedded database (DynamoDB Local) that local mode started: ` +
        'its secret access key id was not sent. Stop whatever took the port, or choose another LOCAL_DYNAMODB_PORT.',
    );
  if (!PROC) {
    const listeners = lsofListeners(port);
    if (listeners === undefined) {
      if (!warned)
        process.emitWarning(`cannot tell which process listens on port ${port} here (no /proc, no lsof): not checked`);
      warned = true;
      return;
    }
    const mine = new Set(owners());
    const foreign = listeners.filter((pid) => !mine.has(pid));
    if (listeners.length === 0 || foreign.length)
      throw refuse(foreign.length ? `process ${foreign.join(', ')}` : 'no process we know');
    return;
  }
  const localPort = socket.localPort;
  if (localPort === undefined) throw refuse('a connection that closed at once');
  const ownedBy = (inodes: number[]) => {
    const held = new Set<number>();
    for (const pid of owners()) for (const inode of socketsOf(pid)) held.add(inode);
    return inodes.every((i) => held.has(i));
  };
  for (let attempt = 0; ; attempt++) {
    const inodes = socketInodes(ESTABLISHED, port, localPort);
    if (inodes.length && inodes.every((i) => i !== 0)) {
      if (ownedBy(inodes)) return;
      throw refuse('another process');
    }
    if (inodes.length) {
      // Not accepted yet (inode 0): it waits in the queue of the listening socket, which decides who will accept it.
      const listeners = socketInodes(LISTEN, port);
      if (listeners.length && ownedBy(listeners)) return;
      if (listeners.length) throw refuse('another process');
    }
    if (attempt >= 100 || socket.destroyed) {
      // The connection went away before its peer could be seen: an ordinary connection failure, nothing was sent.
      throw Object.assign(new Error(`the connection to port ${port} closed before its peer could be checked`), {
        code: 'ECONNRESET',
      });
    }
    await sleep(attempt < 20 ? 1 : 10);
  }
}

/**
 * An http.Agent (for the DynamoDB client's requestHandler) that hands a connection over only once verifyPeer says the
 * process at the other end is one of `owners()`: a foreign listener gets a connection, never a byte of a request.
 */
/** As the DynamoDB client's own connection timeout (stores/dynamodb-client.ts). */
const CONNECT_TIMEOUT_MS = 500;

export class OwnedListenerAgent extends Agent {
  constructor(
    private readonly port: number,
    private readonly owners: () => number[],
    /** Told of each refusal (local mode stops on it). */
    private readonly onRefused?: (err: ForeignListenerError) => void,
  ) {
    super({ keepAlive: true, maxSockets: 50 });
  }

  override createConnection(
    options: ClientRequestArgs,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const socket = createConnection(options as NetConnectOpts);
    // The agent takes the first answer only (it wraps `callback` in a once), so a later error changes nothing.
    socket.on('error', (err) => callback?.(err, socket));
    // The client's connection timeout cannot end a socket it was never handed: ended here, or a database that hangs
    // (its accept queue full) collects one pending socket per attempt, thousands in a minute under load.
    socket.setTimeout(CONNECT_TIMEOUT_MS, () =>
      socket.destroy(Object.assign(new Error('connection timed out'), { code: 'ETIMEDOUT' })),
    );
    socket.once('connect', () => {
      socket.setTimeout(0);
      verifyPeer(socket, this.port, this.owners).then(
        () => callback?.(null, socket),
        (err: Error) => {
          socket.destroy();
          callback?.(err, socket);
          if (err instanceof ForeignListenerError) this.onRefused?.(err);
        },
      );
    });
    return undefined;
  }
}
