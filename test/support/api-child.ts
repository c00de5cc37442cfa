// Local mode's HTTP API (the service object behind lib/local/server.ts, as bin/local.ts runs it) in a process of its
// own, so a test measures that process's memory for real (/proc/<pid>/status). It reads its settings from the
// environment with the service's own parser (tables, endpoint, cache TTLs), prints one line
// `listening on <base url>` when ready, and stops on SIGTERM or when its stdin closes (the test is gone).
import { startLocalServer } from '../../lib/local/server';
import { parseSettings } from '../../lambdas/contract/settings';
import { createService } from '../../lambdas/service';

async function main(): Promise<void> {
  const service = createService(parseSettings(process.env));
  const server = await startLocalServer({ port: 0, handlers: service });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close().catch(() => undefined);
    service.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  process.stdin.on('end', () => void stop());
  process.stdin.on('error', () => void stop());
  // A line `memory` on stdin answers one line `memory <process.memoryUsage() as JSON>` (after a full GC when the
  // process runs with --expose-gc, as the fuzz test starts it), so a test can tell live heap from what V8 has not collected yet.
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    if (!chunk.includes('memory')) return;
    (globalThis as { gc?: () => void }).gc?.();
    process.stdout.write(`memory ${JSON.stringify(process.memoryUsage())}\n`);
  });
  process.stdout.write(`listening on ${server.baseUrl}\n`);
}

main().catch((err) => {
  process.stderr.write(`api-child failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
