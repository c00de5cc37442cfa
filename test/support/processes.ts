// Processes of this run, found in /proc (Linux, where the suite runs): the DynamoDB Local JVM a process started.
import { readFileSync, readdirSync } from 'node:fs';
import { procStat } from '../../lib/local/parent-watch';

/** A process whose parent is one of `parents` and whose command line holds `command`; undefined if none. */
export function childRunning(parents: readonly number[], command: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (!stat || !parents.includes(stat.ppid)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(command)) return Number(entry);
    } catch {
      // the process went away while we looked
    }
  }
  return undefined;
}
