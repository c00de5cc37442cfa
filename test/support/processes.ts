// Processes of this run, found in /proc (Linux, where the suite runs): the DynamoDB Local JVM a process started.
import { readFileSync } from 'node:fs';
import { childrenOf } from '../../lib/local/listener-owner';

/** A process whose parent is one of `parents` and whose command line holds `command`; undefined if none. */
export function childRunning(parents: readonly number[], command: string): number | undefined {
  for (const pid of parents.flatMap(childrenOf)) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(command)) return pid;
    } catch {
      // the process went away while we looked
    }
  }
  return undefined;
}
