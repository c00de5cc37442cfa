// `npm start` does not pass SIGTERM on to the script it runs: killing npm would orphan the server and its JVM.
// So local mode watches the processes that started it (up to and including npm) and stops itself when one is gone.
import { readFileSync } from 'node:fs';

/** Parent pid, command name and state letter (R, S, Z...) of a process, from /proc (Linux); undefined elsewhere. */
export function procStat(pid: number): { ppid: number; comm: string; state: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Format: pid (comm) state ppid ...; comm may contain spaces and parentheses.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const [state, ppid] = stat.slice(close + 2).split(' ');
    return { ppid: Number(ppid), comm, state };
  } catch {
    return undefined;
  }
}

/** Our ancestors up to the nearest `npm` (or just the parent where there is no npm or no /proc). */
function launcherPids(): number[] {
  const chain: number[] = [];
  let pid = process.ppid;
  for (let depth = 0; depth < 6 && pid > 1; depth++) {
    chain.push(pid);
    const stat = procStat(pid);
    if (!stat) break;
    if (/^npm/.test(stat.comm) || /npm-cli|npm\b/.test(safeCmdline(pid))) return chain;
    pid = stat.ppid;
  }
  return chain.slice(0, 1);
}

function safeCmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** Whether a process with this pid exists (EPERM: it does, but is another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie has exited and holds no port, lock or memory; it waits only to be reaped, which an init that does not
  // reap (a container without --init) never does.
  return procStat(pid)?.state !== 'Z';
}

/** Calls `onGone` once, soon after any launcher process exits. The timer does not keep the process alive. */
export function watchLaunchers(onGone: () => void): void {
  const pids = launcherPids();
  const originalParent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== originalParent || pids.some((pid) => !processAlive(pid))) {
      clearInterval(timer);
      onGone();
    }
  }, 500);
  timer.unref();
}
