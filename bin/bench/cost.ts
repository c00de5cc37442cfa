// Section "cost": what a million decisions cost on AWS, computed from what each call was measured to use here (the
// write and read units DynamoDB Local reports, the stored item's size over real e-mails, the handlers' CPU and wait
// time, the log bytes they write), beside the floor of the same call and a managed NLP API's price.
// The arithmetic is in cost-model.ts, the prices in prices.ts; docs/performance.md explains both.
import { EDGE_MANAGED_RULE_GROUPS } from '../../lib/stack/edge';
import { API_BASE_PATH } from '../../lambdas/contract/routes';
import { DECISIONS_BY_WORKSPACE_INDEX, DECISIONS_TABLE, ITEM_PREFIX } from '../../lambdas/contract/tables';
import { dynamoItemBytes, edgeCost, edgeCostPerMillionAt, managedNlpCostPerMillion, writeUnitsFor } from './cost-model';
import { type Figures, median, percentile, progress, round2, round3 } from './common';
import { PRICES } from './prices';
import type { World } from './world';
import type { ApiRequest } from './requests';
import {
  meteredService,
  type CallSample,
  LOG_RETENTION_DAYS,
  type Line,
  call,
  indexEntry,
  hasRoute,
  realEmails,
  priceFigures,
  resources,
} from './cost-measure';

export async function benchCost(world: World, quick: boolean): Promise<Figures> {
  const settings = world.service.dependencies.settings;
  const { service, meter } = meteredService(world);
  const key = await world.newKey();
  const ws = world.workspace;
  const listing = hasRoute('GET', `${API_BASE_PATH}/decisions`);
  // The contract stores each decision (1 unit up to 1 KB) and, once listing exists, its index entry.
  const decisionFloorWrites = 1 + (listing ? 1 : 0);
  const lines: Line[] = [];
  /** Makes each request (with the key) and adds the line its samples measure. */
  const measureLine = async (
    line: Omit<Line, 'samples' | 'decisions'> & { decisions?: number },
    requests: Omit<ApiRequest, 'key'>[],
  ) => {
    const samples: CallSample[] = [];
    for (const r of requests) samples.push(await call(service, meter, { key, ...r }));
    lines.push({ decisions: 1, ...line, samples });
    return samples;
  };
  const analyzePath = `${API_BASE_PATH}/signals/analyze`;
  try {
    const emails = realEmails(ws, quick ? 400 : 2_000);
    if (!emails.length) throw new Error('no e-mails found in ../shared/data');
    // Warm-up: the key is cached, the code is compiled, as in a warm Lambda.
    for (const body of emails.slice(0, 50))
      await call(service, meter, { key, method: 'POST', path: analyzePath, body });

    progress(`  cost: analyze over ${emails.length} real e-mails ...`);
    const analyze = await measureLine(
      { name: 'analyze', floor: { writeUnits: decisionFloorWrites, readUnits: 0 }, routeKey: `POST ${analyzePath}` },
      emails.map((body) => ({ method: 'POST', path: analyzePath, body })),
    );
    // The record (1 unit) written beside the decision, without a transaction.
    await measureLine(
      {
        name: 'analyze_idempotent',
        floor: { writeUnits: decisionFloorWrites + 1, readUnits: 0 },
        routeKey: `POST ${analyzePath}`,
      },
      emails.slice(0, quick ? 100 : 300).map((body, i) => ({
        method: 'POST',
        path: analyzePath,
        body,
        idempotencyKey: `cost-${Date.now()}-${i}`,
      })),
    );

    const batchPath = `${API_BASE_PATH}/signals/analyze-batch`;
    if (hasRoute('POST', batchPath)) {
      const batch = (b: number) =>
        Array.from({ length: 100 }, (_, i) => JSON.parse(emails[(b * 100 + i) % emails.length]) as unknown);
      await measureLine(
        {
          name: 'batch100',
          decisions: 100,
          floor: { writeUnits: 100 * decisionFloorWrites, readUnits: 0 },
          routeKey: `POST ${batchPath}`,
        },
        Array.from({ length: quick ? 3 : 10 }, (_, b) => ({
          method: 'POST',
          path: batchPath,
          body: JSON.stringify({ signals: batch(b) }),
        })),
      );
    }

    const ids = analyze
      .filter((s) => s.result.statusCode === 200)
      .map((s) => (JSON.parse(s.result.body) as { decision_id: string }).decision_id)
      .slice(0, quick ? 100 : 300);
    // One strongly consistent read of an item under 4 KB: a GET right after analyze must find the decision.
    await measureLine(
      { name: 'get', floor: { writeUnits: 0, readUnits: 1 }, routeKey: `GET ${API_BASE_PATH}/decisions/{decision_id}` },
      ids.map((id) => ({ method: 'GET', path: `${API_BASE_PATH}/decisions/${id}` })),
    );

    if (listing) {
      // A page of 20 decisions read from an index (eventually consistent: half a unit per 4 KB).
      const itemBytes = median(decisionItems(analyze).map(dynamoItemBytes));
      await measureLine(
        {
          name: 'list_page',
          floor: { writeUnits: 0, readUnits: Math.ceil((20 * itemBytes) / 4096) * 0.5 },
          routeKey: `GET ${API_BASE_PATH}/decisions`,
        },
        Array.from({ length: quick ? 30 : 100 }, () => ({
          method: 'GET',
          path: `${API_BASE_PATH}/decisions`,
          query: `workspace_id=${ws}`,
        })),
      );
    }

    const feedbackPath = (id: string) => `${API_BASE_PATH}/decisions/${id}/feedback`;
    if (hasRoute('POST', feedbackPath('{decision_id}'))) {
      // Read the decision (eventually consistent) and store the feedback (1 unit).
      await measureLine(
        {
          name: 'feedback',
          floor: { writeUnits: 1, readUnits: 0.5 },
          routeKey: `POST ${feedbackPath('{decision_id}')}`,
        },
        ids.map((id) => ({
          method: 'POST',
          path: feedbackPath(id),
          body: JSON.stringify({ category: 'billing', priority: 'high' }),
        })),
      );
    }
  } finally {
    service.close();
  }

  const logRetentionMonths = LOG_RETENTION_DAYS / 30;
  const figures: Figures = {};
  for (const line of lines) {
    const failed = line.samples.filter((s) => s.result.statusCode !== 200).length;
    const { measured: m, floor } = resources(line, logRetentionMonths);
    Object.assign(figures, priceFigures(line.name, m, floor));
    const p = `cost_${line.name}`;
    figures[`${p}_write_units`] = round3(m.writeUnits);
    figures[`${p}_read_units`] = round3(m.readUnits);
    figures[`${p}_billed_ms_authorizer`] = round3(m.billedMs[0]);
    figures[`${p}_billed_ms_route`] = round3(m.billedMs[1]);
    figures[`${p}_log_bytes`] = Math.round(m.logBytes);
    figures[`${p}_log_events`] = round2(m.logEvents);
    figures[`${p}_calls_measured`] = line.samples.length - failed;
    if (failed) figures[`${p}_calls_failed`] = failed;
  }

  // The stored decision item over real e-mails (analyze's own puts).
  const analyzeLine = lines.find((l) => l.name === 'analyze');
  const sizes = decisionItems(analyzeLine?.samples ?? [])
    .map(dynamoItemBytes)
    .sort((a, b) => a - b);
  if (sizes.length) {
    figures.decision_item_bytes_median = median(sizes);
    figures.decision_item_bytes_p95 = percentile(sizes, 0.95);
    figures.decision_item_bytes_max = sizes[sizes.length - 1];
    figures.decision_item_one_write_unit_share = round3(
      sizes.filter((b) => writeUnitsFor(b) === 1).length / sizes.length,
    );
    figures.decision_items_measured = sizes.length;
    // What learning's sketch (kept with each decision so feedback can learn from it) adds: the feature that needs more.
    const withoutSketch = decisionItems(analyzeLine?.samples ?? [])
      .map(({ sketch: _sketch, ...rest }) => dynamoItemBytes(rest))
      .sort((a, b) => a - b);
    figures.decision_item_bytes_p95_without_sketch = percentile(withoutSketch, 0.95);
    figures.decision_item_one_write_unit_share_without_sketch = round3(
      withoutSketch.filter((b) => writeUnitsFor(b) === 1).length / withoutSketch.length,
    );
    // The listing index copies only the decision and its expiry (lambdas/contract/tables.ts): the sketch's extra units
    // are paid on the table alone; storage counts each index's copy of an item by what it copies.
    const listIndex = DECISIONS_TABLE.indexes.find((index) => index.indexName === DECISIONS_BY_WORKSPACE_INDEX)!;
    const items = decisionItems(analyzeLine?.samples ?? []);
    const entryBytes = items
      .map((item) => indexEntry(item, listIndex, DECISIONS_TABLE.partitionKey))
      .map((entry) => (entry ? dynamoItemBytes(entry) : 0))
      .sort((a, b) => a - b);
    const extraUnits =
      sizes.reduce((sum, b) => sum + writeUnitsFor(b), 0) / sizes.length -
      withoutSketch.reduce((sum, b) => sum + writeUnitsFor(b), 0) / withoutSketch.length;
    figures.cost_sketch_usd_per_million_decisions = round3(extraUnits * PRICES.dynamodbPerMillionWriteUnits);
    figures.decision_list_index_entry_bytes_median = median(entryBytes);
    // Storage while retained: the item and its index entry, each with DynamoDB's 100 bytes of overhead per item.
    const indexBytes = listing ? median(entryBytes) + 100 : 0;
    const gbMonths = (((median(sizes) + 100 + indexBytes) * 1e6) / 1e9) * (settings.decisionRetentionDays / 30);
    figures.cost_storage_usd_per_million_decisions_retained = round3(gbMonths * PRICES.dynamodbPerGbMonth);
  }
  figures.cost_managed_nlp_usd_per_million_2kb = round2(managedNlpCostPerMillion(2_000));
  // Edge protection on (-c edgeProtection=true): CloudFront and WAF per request, the web ACL's rules per month.
  const edge = edgeCost(EDGE_MANAGED_RULE_GROUPS.length + 1);
  figures.cost_edge_usd_per_million_requests = round3(edge.cloudfront + edge.waf);
  figures.cost_edge_fixed_usd_per_month = round2(edge.fixedPerMonth);
  figures.cost_edge_usd_per_million_at_10m_a_month = round3(edgeCostPerMillionAt(edge, 10));
  if (figures.cost_analyze_usd_per_million !== undefined) {
    figures.cost_analyze_with_edge_usd_per_million_at_10m_a_month = round3(
      figures.cost_analyze_usd_per_million + edgeCostPerMillionAt(edge, 10),
    );
  }
  return figures;
}

/** The decision items among what the calls put (idempotency records and learning items are other items). */
function decisionItems(samples: CallSample[]): Record<string, unknown>[] {
  return samples.flatMap((s) =>
    s.putItems.filter((item) => (typeof item.pk === 'string' ? item.pk : '').startsWith(ITEM_PREFIX.decision)),
  );
}
