// processAlive (lib/local/parent-watch.ts) decides whether a recorded DynamoDB Local or a lock's holder still runs. A
// zombie (exited, not reaped: its parent does not wait, and an init that does not reap leaves it) holds nothing, so it
// counts as gone; on such a machine a killed JVM used to look alive for good.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { procStat, processAlive } from '../../lib/local/parent-watch';

const linux = existsSync('/proc/self/stat');

(linux ? it : it.skip)('counts a zombie as gone and a running process as alive', async () => {
  // sh starts a short sleep, prints its pid, then becomes a long sleep, which never reaps the short one.
  const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const pid = Number(await new Promise<string>((done) => parent.stdout.once('data', (d: Buffer) => done(String(d)))));
    while (procStat(pid)?.state !== 'Z') await new Promise((r) => setTimeout(r, 20));
    expect(processAlive(pid)).toBe(false);
    expect(processAlive(parent.pid!)).toBe(true);
  } finally {
    parent.kill('SIGKILL');
  }
});
