// Section "cost": what a million decisions cost on AWS, computed from what each call was measured to use here (the
// write and read units DynamoDB Local reports, the stored item's size over real e-mails, the handlers' CPU and wait
// time, the log bytes they write), beside the floor of the same call and a managed NLP API's price.
// The arithmetic is in cost-model.ts, the prices in prices.ts; docs/performance.md explains both.
import { EDGE_MANAGED_RULE_GROUPS } from '../../lib/stack/edge';
import { LAMBDA_MEMORY_MB } from '../../lib/lambda-bundling';
import { API_BASE_PATH } from '../../lambdas/contract/routes';
import { DEFAULT_SETTINGS } from '../../lambdas/contract/settings';
import { TRACE_SEND_TIMEOUT_MS } from '../../lambdas/trace-sinks';
import { DECISION_LIST_INDEX, DECISIONS_TABLE, ITEM_PREFIX } from '../../lambdas/contract/tables';
import {
  dynamoItemBytes,
  edgeCost,
  edgeCostPerMillionAt,
  managedNlpCostPerMillion,
  tracingCostPerMillion,
  tracingWaitCostPerMillionAtMost,
  writeUnitsFor,
} from './cost-model';
import { type Figures, median, percentile } from './common';
import { PRICES } from './prices';
import type { World } from './world';
import { ANALYZE_PATH, type ApiRequest } from './requests';
import {
  ANALYZE_FLOOR,
  type CallSample,
  FEEDBACK_FLOOR,
  type Line,
  analyzeSamples,
  indexEntry,
  priceFigures,
  realEmails,
  resources,
  withMeteredService,
} from './cost-measure';

export async function benchCost(world: World, quick: boolean): Promise<Figures> {
  const settings = world.service.dependencies.settings;
  const ws = world.workspace;
  const lines: Line[] = [];
  await withMeteredService(world, async (call) => {
    /** Makes each request and adds the line its samples measure. */
    const measureLine = async (line: Omit<Line, 'samples'>, requests: Omit<ApiRequest, 'key'>[]) => {
      const samples: CallSample[] = [];
      for (const r of requests) samples.push(await call(r));
      lines.push({ ...line, samples });
    };
    const emails = realEmails(ws, quick ? 400 : 2_000);
    if (!emails.length) throw new Error('no e-mails found in ../shared/data');
    const analyze = await analyzeSamples(call, emails, 'analyze');
    lines.push({ name: 'analyze', decisions: 1, floor: ANALYZE_FLOOR, samples: analyze });
    // The record (1 unit) written beside the decision, without a transaction.
    await measureLine(
      {
        name: 'analyze_idempotent',
        decisions: 1,
        floor: { ...ANALYZE_FLOOR, writeUnits: ANALYZE_FLOOR.writeUnits + 1 },
      },
      emails.slice(0, quick ? 100 : 300).map((body, i) => ({
        method: 'POST',
        path: ANALYZE_PATH,
        body,
        idempotencyKey: `cost-${Date.now()}-${i}`,
      })),
    );

    const batch = (b: number) =>
      Array.from({ length: 100 }, (_, i) => JSON.parse(emails[(b * 100 + i) % emails.length]) as unknown);
    await measureLine(
      { name: 'batch100', decisions: 100, floor: { writeUnits: 100 * ANALYZE_FLOOR.writeUnits, readUnits: 0 } },
      Array.from({ length: quick ? 3 : 10 }, (_, b) => ({
        method: 'POST',
        path: `${API_BASE_PATH}/signals/analyze-batch`,
        body: JSON.stringify({ signals: batch(b) }),
      })),
    );

    const ids = analyze
      .filter((s) => s.result.statusCode === 200)
      .map((s) => (JSON.parse(s.result.body) as { decision_id: string }).decision_id)
      .slice(0, quick ? 100 : 300);
    // One strongly consistent read of an item under 4 KB: a GET right after analyze must find the decision.
    await measureLine(
      { name: 'get', decisions: 1, floor: { writeUnits: 0, readUnits: 1 } },
      ids.map((id) => ({ method: 'GET', path: `${API_BASE_PATH}/decisions/${id}` })),
    );

    // A page of 20 decisions read from an index (eventually consistent: half a unit per 4 KB).
    const itemBytes = median(decisionItems(analyze).map(dynamoItemBytes));
    await measureLine(
      {
        name: 'list_page',
        decisions: 1,
        floor: { writeUnits: 0, readUnits: Math.ceil((20 * itemBytes) / 4096) * 0.5 },
      },
      Array.from({ length: quick ? 30 : 100 }, () => ({
        method: 'GET',
        path: `${API_BASE_PATH}/decisions`,
        query: `workspace_id=${ws}`,
      })),
    );

    await measureLine(
      { name: 'feedback', decisions: 1, floor: FEEDBACK_FLOOR },
      ids.map((id) => ({
        method: 'POST',
        path: `${API_BASE_PATH}/decisions/${id}/feedback`,
        body: JSON.stringify({ category: 'billing', priority: 'high' }),
      })),
    );
  });

  const figures: Figures = {};
  for (const line of lines) {
    const failed = line.samples.filter((s) => s.result.statusCode !== 200).length;
    const { measured: m, floor } = resources(line);
    Object.assign(figures, priceFigures(line.name, m, floor));
    const p = `cost_${line.name}`;
    figures[`${p}_write_units`] = m.writeUnits;
    figures[`${p}_read_units`] = m.readUnits;
    figures[`${p}_billed_ms_authorizer`] = m.billedMs[0];
    figures[`${p}_billed_ms_route`] = m.billedMs[1];
    figures[`${p}_log_bytes`] = Math.round(m.logBytes);
    figures[`${p}_log_events`] = m.logEvents;
    figures[`${p}_calls_measured`] = line.samples.length - failed;
    if (failed) figures[`${p}_calls_failed`] = failed;
  }

  // The stored decision item over real e-mails (analyze's own puts).
  const items = decisionItems(lines[0].samples);
  const sizes = items.map(dynamoItemBytes).sort((a, b) => a - b);
  if (sizes.length) {
    const oneUnitShare = (bytes: number[]) => bytes.filter((b) => writeUnitsFor(b) === 1).length / bytes.length;
    const meanUnits = (bytes: number[]) => bytes.reduce((sum, b) => sum + writeUnitsFor(b), 0) / bytes.length;
    figures.decision_item_bytes_median = median(sizes);
    figures.decision_item_bytes_p95 = percentile(sizes, 0.95);
    figures.decision_item_bytes_max = sizes[sizes.length - 1];
    figures.decision_item_one_write_unit_share = oneUnitShare(sizes);
    figures.decision_items_measured = sizes.length;
    // What learning's sketch (kept with each decision so feedback can learn from it) adds: the feature that needs more.
    const withoutSketch = items.map(({ sketch: _sketch, ...rest }) => dynamoItemBytes(rest)).sort((a, b) => a - b);
    figures.decision_item_bytes_p95_without_sketch = percentile(withoutSketch, 0.95);
    figures.decision_item_one_write_unit_share_without_sketch = oneUnitShare(withoutSketch);
    // The listing index copies only the decision and its expiry (lambdas/contract/tables.ts): the sketch's extra units
    // are paid on the table alone; storage counts each index's copy of an item by what it copies.
    const listIndex = DECISIONS_TABLE.indexes.find((index) => index.indexName === DECISION_LIST_INDEX)!;
    const entryBytes = items
      .map((item) => indexEntry(item, listIndex, DECISIONS_TABLE.partitionKey))
      .map((entry) => (entry ? dynamoItemBytes(entry) : 0))
      .sort((a, b) => a - b);
    const extraUnits = meanUnits(sizes) - meanUnits(withoutSketch);
    figures.cost_sketch_usd_per_million_decisions = extraUnits * PRICES.dynamodbPerMillionWriteUnits;
    figures.decision_list_index_entry_bytes_median = median(entryBytes);
    // Storage while retained: the item and its index entry, each with DynamoDB's 100 bytes of overhead per item.
    const gbMonths =
      (((median(sizes) + 100 + median(entryBytes) + 100) * 1e6) / 1e9) * (settings.decisionRetentionDays / 30);
    figures.cost_storage_usd_per_million_decisions_retained = gbMonths * PRICES.dynamodbPerGbMonth;
  }
  figures.cost_managed_nlp_usd_per_million_2kb = managedNlpCostPerMillion(2_000);
  // Edge protection on (-c edgeProtection=true): CloudFront and WAF per request, the web ACL's rules per month.
  const edge = edgeCost(EDGE_MANAGED_RULE_GROUPS.length + 1);
  figures.cost_edge_usd_per_million_requests = edge.cloudfront + edge.waf;
  figures.cost_edge_fixed_usd_per_month = edge.fixedPerMonth;
  figures.cost_edge_usd_per_million_at_10m_a_month = edgeCostPerMillionAt(edge, 10);
  if (figures.cost_analyze_usd_per_million !== undefined) {
    figures.cost_analyze_with_edge_usd_per_million_at_10m_a_month =
      figures.cost_analyze_usd_per_million + edgeCostPerMillionAt(edge, 10);
  }
  // Tracing on (context `tracing`, the default): one X-Ray trace per traced request, at TRACE_SAMPLE_RATE's default
  // whatever the volume (lambdas/tracing.ts); the figures keep their volume in the name for comparison with before.
  const rate = DEFAULT_SETTINGS.traceSampleRate;
  figures.tracing_sampled_share_at_10m_a_month = rate;
  figures.tracing_sampled_share_at_100m_a_month = rate;
  figures.cost_tracing_usd_per_million_at_10m_a_month = tracingCostPerMillion(rate);
  figures.cost_tracing_usd_per_million_at_100m_a_month = tracingCostPerMillion(rate);
  figures.cost_tracing_send_wait_usd_per_million_at_most = tracingWaitCostPerMillionAtMost(
    rate,
    TRACE_SEND_TIMEOUT_MS,
    LAMBDA_MEMORY_MB,
  );
  if (figures.cost_analyze_usd_per_million !== undefined) {
    figures.cost_analyze_with_tracing_usd_per_million_at_10m_a_month =
      figures.cost_analyze_usd_per_million + tracingCostPerMillion(rate);
  }
  return figures;
}

/** The decision items among what the calls put (idempotency records and learning items are other items). */
function decisionItems(samples: CallSample[]): Record<string, unknown>[] {
  return samples.flatMap((s) =>
    s.putItems.filter((item) => (typeof item.pk === 'string' ? item.pk : '').startsWith(ITEM_PREFIX.decision)),
  );
}
