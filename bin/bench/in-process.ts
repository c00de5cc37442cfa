// Section "inprocess": the in-process request path against a bare PutItem of the same item.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import { createDocumentClient } from '../../lambdas/stores/dynamodb-client';
import { type Figures, percentile, wallMs } from './common';
import { createService } from '../../lambdas/service';
import { analyzeEvents, assertOk, decisionItem, expectOk, inProcess, putItem } from './requests';
import type { World } from './world';

/**
 * `other`: a second analyze path (another key and body) measured in the same loop, at the same moments, so its ratio
 * is comparable with the first's on a machine whose speed drifts (the workspace section: a fresh workspace).
 */
export async function benchInProcess(
  world: World,
  iterations: number,
  other?: { key: string; body: string },
): Promise<Figures> {
  const client = createDocumentClient(world.db.clientOptions);
  /** Where the deployed path's log lines and metrics go: a Lambda's go to its log agent, not to this terminal. */
  const sink = (() => true) as typeof process.stdout.write;
  const output = {
    stdout: process.stdout.write.bind(process.stdout),
    stderr: process.stderr.write.bind(process.stderr),
  };
  const deployed = createService({ ...world.service.dependencies.settings, logLevel: 'INFO', metricsEnabled: true });
  // Neither client carries the bench's call counter while timed.
  world.counting(false);
  try {
    const template = expectOk(await world.analyze());
    // The same item analyze stored, its learning sketch included.
    const stored = await client.send(
      new GetCommand({ TableName: world.names.decisions, Key: { pk: ITEM_PREFIX.decision + template.decision_id } }),
    );
    const extra = stored.Item?.sketch !== undefined ? { sketch: stored.Item.sketch as unknown } : {};
    const bare = () => {
      const item = decisionItem(template, 'bench', 'key_bench', extra);
      return wallMs(() => putItem(client, world.names.decisions, item));
    };
    const full = (key = world.key, body = world.body) => wallMs(async () => assertOk(await world.analyze(key, body)));
    // The same request on a service logging as deployed (INFO: a line a request; EMF metrics on), its output sent to
    // a sink, as a Lambda's goes to its log agent: the goal's path. The world's service logs at WARN.
    const asDeployed = () =>
      wallMs(async () => {
        process.stdout.write = process.stderr.write = sink;
        try {
          assertOk(await inProcess(deployed, analyzeEvents(world.key, world.body)));
        } finally {
          process.stdout.write = output.stdout;
          process.stderr.write = output.stderr;
        }
      });
    const paths = [full, bare, asDeployed, ...(other ? [() => full(other.key, other.body)] : [])];
    const times: number[][] = paths.map(() => []);
    // Warm-up: JIT, connections, DynamoDB Local's own JIT.
    for (let i = 0; i < Math.min(300, iterations / 4); i++) for (const path of paths) await path();
    // Interleaved, rotating which goes first, so drift on the shared machine hits every path alike.
    for (let i = 0; i < iterations; i++) {
      for (let j = 0; j < paths.length; j++) {
        const k = (i + j) % paths.length;
        times[k].push(await paths[k]());
      }
    }
    const [a, b, d, c] = times.map((t) => t.sort((x, y) => x - y));
    const [a50, a99, b50, b99] = [percentile(a, 0.5), percentile(a, 0.99), percentile(b, 0.5), percentile(b, 0.99)];
    return {
      inprocess_p50_ms: a50,
      inprocess_p99_ms: a99,
      putitem_p50_ms: b50,
      putitem_p99_ms: b99,
      inprocess_vs_putitem_p50_ratio: a50 / b50,
      inprocess_vs_putitem_p99_ratio: a99 / b99,
      inprocess_deployed_p50_ms: percentile(d, 0.5),
      inprocess_deployed_p99_ms: percentile(d, 0.99),
      inprocess_deployed_vs_putitem_p50_ratio: percentile(d, 0.5) / b50,
      inprocess_deployed_vs_putitem_p99_ratio: percentile(d, 0.99) / b99,
      inprocess_iterations: iterations,
      ...(c
        ? {
            other_p50_ms: percentile(c, 0.5),
            other_p99_ms: percentile(c, 0.99),
            other_vs_putitem_p50_ratio: percentile(c, 0.5) / b50,
          }
        : {}),
    };
  } finally {
    world.counting(true);
    client.destroy();
    deployed.close();
  }
}
