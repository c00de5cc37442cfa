// Load test of local mode, in one process: DynamoDB Local (in memory), the tables, a partner and key, the local HTTP
// API with the real handlers, then autocannon on 127.0.0.1 with a mix of requests. Afterwards every decision that was
// answered with 200 is read back from DynamoDB.
//   npm run load                                   15 s, 64 connections, a table
//   npm run --silent load -- --duration 30 --connections 100 --json   one JSON object on stdout
// Exit status: 0 when there was no 5xx, no connection error, no unexpected answer and no missing decision; 1 otherwise.
import './lexicon-index-check';
import { parseArgs } from 'node:util';
import { JavaMissingError } from '../lib/local/dynamodb-local';
import { startScratch } from '../lib/local/scratch';
import { type RunningServer, startLocalServer } from '../lib/local/server';
import { ITEM_PREFIX } from '../lambdas/contract/tables';
import { batchGet } from '../lambdas/stores/batch-writes';
import { decisionFrom } from '../lambdas/stores/decision-format';
import { createDocumentClient } from '../lambdas/stores/dynamodb-client';
import { WORKSPACES, validSignal } from './load-mix';
import { newShared, newTally, record, runMix, serverErrorCount } from './load-requests';

function options() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '15' },
      connections: { type: 'string', default: '64' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(
      'usage: npm run load -- [--duration SECONDS (default 15, at most 300)] [--connections N (default 64)] [--json]',
    );
    process.exit(0);
  }
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  if (!Number.isInteger(duration) || duration < 1 || duration > 300)
    fail('--duration must be a whole number of seconds from 1 to 300');
  if (!Number.isInteger(connections) || connections < 1 || connections > 1_000)
    fail('--connections must be a whole number from 1 to 1000');
  return { duration, connections, json: values.json };
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function verifyDecisions(
  client: ReturnType<typeof createDocumentClient>,
  table: string,
  decisions: Map<string, number>,
): Promise<{ verified: number; missing: string[] }> {
  const { items } = await batchGet(
    client,
    table,
    [...decisions.keys()].map((id) => ITEM_PREFIX.decision + id),
  );
  const missing: string[] = [];
  let verified = 0;
  for (const [id, score] of decisions) {
    const item = items.get(ITEM_PREFIX.decision + id);
    if (item?.decision && decisionFrom(item).score === score) verified++;
    else missing.push(id);
  }
  return { verified, missing };
}

async function main() {
  const opts = options();
  const log = (line: string) => {
    if (!opts.json) console.log(line);
  };

  log('starting DynamoDB Local (in memory) ...');
  const scratch = await startScratch({
    name: 'load',
    fullJit: true,
    partner: 'load',
    workspaces: WORKSPACES,
    settings: { logLevel: 'WARN' },
  });
  let server: RunningServer | undefined;
  const stop = async () => {
    await server?.close().catch(() => undefined);
    await scratch.stop();
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));

  try {
    const key = await scratch.newKey();
    server = await startLocalServer({ port: 0, handlers: scratch.service });

    const shared = newShared(key, 'load');
    const tally = newTally();

    // Warm-up: the first request loads modules and opens connections; keep it out of the figures.
    await fetch(`${server.baseUrl}/signals/analyze`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(validSignal()),
    }).then(async (res) =>
      record(shared, tally, { kind: 'analyze' }, res.status, await res.text(), Object.fromEntries(res.headers)),
    );

    log(`load: ${opts.connections} connections for ${opts.duration} s against ${server.baseUrl}`);
    const result = await runMix(shared, tally, {
      url: `http://127.0.0.1:${server.port}`,
      connections: opts.connections,
      duration: opts.duration,
    });

    const serverErrors = serverErrorCount(tally);
    log(`verifying ${shared.decisions.size} decisions in DynamoDB ...`);
    const { verified, missing } = await verifyDecisions(scratch.client, scratch.names.decisions, shared.decisions);

    const figures = {
      duration_seconds: result.duration,
      connections: opts.connections,
      requests_total: result.requests.total,
      requests_per_second: Math.round(result.requests.total / result.duration),
      latency_p50_ms: result.latency.p50,
      latency_p90_ms: result.latency.p90,
      latency_p99_ms: result.latency.p99,
      latency_max_ms: result.latency.max,
      status_counts: tally.statusCounts,
      status_counts_by_kind: tally.byKind,
      connection_errors: result.errors,
      timeouts: result.timeouts,
      server_errors: serverErrors,
      unexpected_answers: tally.unexpected.length,
      contract_violations: tally.contractViolations,
      idempotent_replays: tally.replayed,
      replay_mismatches: tally.replayMismatches,
      get_mismatches: tally.getMismatches,
      decisions_created: shared.decisions.size,
      decisions_verified: verified,
      decisions_missing: missing.length,
    };
    const problems = [serverErrors, missing.length, result.errors, tally.unexpected.length, tally.contractViolations];
    const ok = [...problems, tally.replayMismatches, tally.getMismatches].every((n) => n === 0);

    if (opts.json) {
      console.log(
        JSON.stringify({
          ...figures,
          ok,
          ...(missing.length ? { missing_decision_ids: missing.slice(0, 20) } : {}),
          ...(tally.unexpected.length ? { unexpected_samples: tally.unexpected.slice(0, 5) } : {}),
        }),
      );
    } else {
      const kinds = Object.entries(tally.byKind).map(
        ([k, c]) =>
          `    ${k.padEnd(26)} ${Object.entries(c)
            .map(([s, n]) => `${s}: ${n}`)
            .join(', ')}`,
      );
      console.log('');
      console.log(
        `requests          ${figures.requests_total} in ${figures.duration_seconds} s = ${figures.requests_per_second} requests/s (${opts.connections} connections)`,
      );
      console.log(
        `latency           p50 ${figures.latency_p50_ms} ms, p90 ${figures.latency_p90_ms} ms, p99 ${figures.latency_p99_ms} ms, max ${figures.latency_max_ms} ms`,
      );
      console.log(
        `status counts     ${Object.entries(tally.statusCounts)
          .map(([s, n]) => `${s}: ${n}`)
          .join(', ')}`,
      );
      console.log('by request kind');
      console.log(kinds.join('\n'));
      console.log(`5xx               ${serverErrors}`);
      console.log(`connection errors ${result.errors} (timeouts ${result.timeouts})`);
      console.log(
        `unexpected        ${tally.unexpected.length}${tally.unexpected.length ? ` e.g. ${JSON.stringify(tally.unexpected[0])}` : ''}`,
      );
      console.log(
        `contract checks   ${tally.contractViolations} answers without JSON or X-Request-Id; ${tally.replayMismatches} replays with another decision; ${tally.getMismatches} GETs of another decision`,
      );
      console.log(`idempotent        ${tally.replayed} replays answered with Idempotent-Replayed: true`);
      console.log(
        `decisions         ${shared.decisions.size} created, ${verified} read back from DynamoDB, ${missing.length} missing${missing.length ? ` (e.g. ${missing.slice(0, 3).join(', ')})` : ''}`,
      );
      console.log(ok ? 'OK' : 'FAILED');
    }
    process.exitCode = ok ? 0 : 1;
  } finally {
    await stop();
  }
}

main().catch((err) => {
  console.error(err instanceof JavaMissingError ? err.message : `load failed: ${(err as Error).stack ?? err}`);
  process.exit(1);
});
