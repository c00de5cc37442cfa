// What the admin CLI prints, written whole before it exits (README.md, "Admin CLI"). process.stdout to a pipe
// is asynchronous: a write larger than the pipe's buffer (64 KiB) is partly queued in the process, and
// process.exit() drops the queue, so `--json | wc -c` saw 65,536 bytes with exit 0. Each line resolves once the
// stream has taken all of it, so main() exits only after its output is out.
import type { Writable } from 'node:stream';

/** Writes `text` and a newline to `stream`, resolving when all of it was handed to the operating system. */
export function writeLine(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(`${text}\n`, (err) => (err ? reject(err) : resolve()));
  });
}
