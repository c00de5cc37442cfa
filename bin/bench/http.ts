// Section "http": local mode over HTTP against a bare node:http server doing the same single PutItem.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type RunningServer, startLocalServer } from '../../lib/local/server';
import type { Decision } from '../../lambdas/domain/decision';
import { decisionFrom } from '../../lambdas/stores/decision-format';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { type Figures, progress } from './common';
import type { Options } from './options';
import { ANALYZE_PATH, decisionItem, expectOk, putItem } from './requests';
import type { World } from './world';

interface CannonResult {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** autocannon in its own process (the server's event loop stays the server's), loopback only, bounded time. */
function autocannon(
  url: string,
  seconds: number,
  connections: number,
  headers: Record<string, string>,
  bodyFile: string,
) {
  const args = ['--json', '-n', '-c', String(connections), '-d', String(seconds), '-t', '10', '-m', 'POST'];
  args.push('-i', bodyFile, ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url);
  return new Promise<CannonResult>((done, failed) => {
    const child = spawn(process.execPath, [require.resolve('autocannon/autocannon.js'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        const r = JSON.parse(out) as {
          requests: { total: number };
          duration: number;
          latency: { p99: number };
          non2xx: number;
          errors: number;
          timeouts: number;
        };
        done({
          rps: r.requests.total / r.duration,
          p99: r.latency.p99,
          non2xx: r.non2xx,
          errors: r.errors + r.timeouts,
        });
      } catch {
        failed(new Error(`autocannon failed (exit ${code}): ${err.slice(-500)}`));
      }
    });
  });
}

/** The least any server must do for this request: read and parse the body, write the item once, answer JSON. */
async function startBareServer(world: World, template: Decision): Promise<{ url: string; close(): Promise<void> }> {
  const client = createDocumentClient(world.db.clientOptions);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        try {
          const signal = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { workspace_id?: string };
          const item = decisionItem({ ...template, workspace_id: String(signal.workspace_id) }, 'bench', 'key_bench');
          await putItem(client, world.names.decisions, item);
          const out = JSON.stringify(decisionFrom(item));
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
          res.end(out);
        } catch {
          res.writeHead(500, { 'content-length': '0' });
          res.end();
        }
      })();
    });
  });
  server.keepAliveTimeout = 65_000; // as lib/local/server.ts
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}${ANALYZE_PATH}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
        client.destroy();
      }),
  };
}

export async function benchHttp(world: World, opts: Options): Promise<Figures> {
  const template = expectOk(await world.analyze());
  const dir = mkdtempSync(path.join(tmpdir(), 'sas-bench-'));
  const bodyFile = path.join(dir, 'body.json');
  writeFileSync(bodyFile, world.body);
  let local: RunningServer | undefined;
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  try {
    local = await startLocalServer({ port: 0, handlers: world.service });
    bare = await startBareServer(world, template);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${world.key}` };
    const targets = { local: `http://127.0.0.1:${local.port}${ANALYZE_PATH}`, bare: bare.url };
    const c = opts.httpConnections;
    // Warm-up (not counted): JIT on both sides, connection pools to DynamoDB Local.
    await autocannon(targets.bare, 1, c, headers, bodyFile);
    await autocannon(targets.local, 1, c, headers, bodyFile);
    const runs: Record<'local' | 'bare', CannonResult[]> = { local: [], bare: [] };
    for (let r = 0; r < opts.httpRounds; r++) {
      const order: ('local' | 'bare')[] = r % 2 === 0 ? ['bare', 'local'] : ['local', 'bare'];
      for (const which of order) {
        progress(`  autocannon: ${which} server, ${c} connections, ${opts.httpSeconds} s`);
        runs[which].push(await autocannon(targets[which], opts.httpSeconds, c, headers, bodyFile));
      }
    }
    const mean = (xs: CannonResult[], f: (r: CannonResult) => number) => xs.reduce((s, x) => s + f(x), 0) / xs.length;
    const rps = { local: mean(runs.local, (r) => r.rps), bare: mean(runs.bare, (r) => r.rps) };
    const p99 = { local: mean(runs.local, (r) => r.p99), bare: mean(runs.bare, (r) => r.p99) };
    const bad = [...runs.local, ...runs.bare].reduce((n, r) => n + r.non2xx + r.errors, 0);
    return {
      http_rps: Math.round(rps.local),
      http_p99_ms: p99.local,
      bare_http_rps: Math.round(rps.bare),
      bare_http_p99_ms: p99.bare,
      http_vs_bare_rps_ratio: rps.local / rps.bare,
      http_vs_bare_p99_ratio: p99.local / p99.bare,
      http_connections: c,
      http_seconds_per_round: opts.httpSeconds,
      http_rounds: opts.httpRounds,
      http_non_2xx: bad,
    };
  } finally {
    await local?.close();
    await bare?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
