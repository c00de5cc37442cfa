// The soak's server (bin/soak.ts): local mode's HTTP API with the real handlers, in a process of its own so that its
// resident memory is measured alone, without the load generator's. Settings come from the environment through the
// service's own parser (tables, endpoint, caches). Prints `listening on <base url>` when ready; a line `memory` on
// stdin answers `memory <process.memoryUsage() as JSON>` (after a full collection when stdin says `memory gc` and
// the process runs with --expose-gc). Stops on SIGTERM or when its stdin closes.
import './lexicon-index-check';
import { startLocalServer } from '../lib/local/server';
import { parseSettings } from '../lambdas/contract/settings';
import { createService } from '../lambdas/service';

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
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    if (!chunk.includes('memory')) return;
    if (chunk.includes('gc')) (globalThis as { gc?: () => void }).gc?.();
    process.stdout.write(`memory ${JSON.stringify(process.memoryUsage())}\n`);
  });
  process.stdout.write(`listening on ${server.baseUrl}\n`);
}

main().catch((err) => {
  process.stderr.write(`soak server failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
