// Section "cost": what a million decisions cost on AWS, computed from what each call was measured to use here (the
// write and read units DynamoDB Local reports, the stored item's size over real e-mails, the handlers' CPU and wait
// time, the log bytes they write), beside the floor of the same call and a managed NLP API's price.
// The arithmetic is in cost-model.ts, the prices in prices.ts; docs/performance.md explains both.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { lambdaContext } from '../../lib/local/server';
import { LAMBDA_MEMORY_MB } from '../../lib/lambda-bundling';
import { ACCESS_LOG_FIELDS } from '../../lib/stack';
import { EDGE_MANAGED_RULE_GROUPS } from '../../lib/stack/edge';
import { API_BASE_PATH, ROUTES } from '../../lambdas/contract/routes';
import { ACCESS_TABLE, DECISIONS_TABLE, ITEM_PREFIX, type TableDefinition } from '../../lambdas/contract/tables';
import { LIMITS } from '../../lambdas/analyze/signal-schema';
import { type Service, createService } from '../../lambdas/service';
import {
  type CallResources,
  billedMs,
  costPerMillion,
  dynamoItemBytes,
  edgeCost,
  edgeCostPerMillionAt,
  managedNlpCostPerMillion,
  perDecision,
  writeUnitsFor,
} from './cost-model';
import { type Figures, REPO_ROOT, median, percentile, progress, round2, round3 } from './common';
import { PRICES } from './prices';
import { type ApiRequest, type HandlerResult, apiEvents } from './requests';
import type { World } from './world';

/** The stack's default log retention (lib/app.ts, context `logRetentionDays`): a year, as the controls ask. */
export const LOG_RETENTION_DAYS = 365;

interface HandlerSample {
  cpuMs: number;
  wallMs: number;
  logBytes: number;
  logEvents: number;
}

export interface CallSample {
  result: HandlerResult;
  authorizer: HandlerSample;
  route: HandlerSample;
  writeUnits: number;
  readUnits: number;
  /** Items the call put, as sent to DynamoDB (decision items among them). */
  putItems: Record<string, unknown>[];
}

/**
 * What every call of the service's client costs in request units. Reads are what DynamoDB Local reports. Writes are
 * priced by DynamoDB's documented rules from the items actually sent, because DynamoDB Local does not model
 * transactions' double price consistently: 1 unit per KB of item, twice that inside a transaction, plus 1 unit per
 * KB for each index the item lands in (all indexes project every attribute). Updates and deletes, whose resulting
 * size the request does not show, count what DynamoDB Local reports.
 */
export class CapacityMeter {
  writeUnits = 0;
  readUnits = 0;
  putItems: Record<string, unknown>[] = [];

  constructor(private readonly tables: Map<string, TableDefinition>) {}

  reset(): void {
    this.writeUnits = this.readUnits = 0;
    this.putItems = [];
  }

  attach(service: Service): void {
    service.dependencies.client.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as Record<string, unknown>;
        input.ReturnConsumedCapacity = 'INDEXES';
        const name = String(context.commandName ?? '').replace(/Command$/, '');
        const out = await next(args);
        const consumed = (out.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
        const reported = [consumed ?? []]
          .flat()
          .reduce((sum: number, c) => sum + Number((c as { CapacityUnits?: number }).CapacityUnits ?? 0), 0);
        if (/^(GetItem|BatchGetItem|TransactGetItems|Query|Scan)$/.test(name)) this.readUnits += reported;
        else this.writeUnits += this.priced(name, input, reported);
        return out;
      },
      { step: 'initialize', name: 'benchCapacityMeter' },
    );
  }

  private priced(name: string, input: Record<string, unknown>, reported: number): number {
    type Put = { TableName: string; Item: Record<string, unknown> };
    if (name === 'PutItem') return this.put(input as unknown as Put, 1);
    if (name === 'BatchWriteItem') {
      let units = 0;
      for (const [table, requests] of Object.entries(
        (input.RequestItems ?? {}) as Record<string, { PutRequest?: { Item: Record<string, unknown> } }[]>,
      )) {
        for (const r of requests)
          units += r.PutRequest ? this.put({ TableName: table, Item: r.PutRequest.Item }, 1) : 1;
      }
      return units;
    }
    if (name === 'TransactWriteItems') {
      let units = 0;
      for (const t of (input.TransactItems ?? []) as { Put?: Put; ConditionCheck?: unknown }[]) {
        if (t.Put) units += this.put(t.Put, 2);
        else if (!t.ConditionCheck) units += 2;
      }
      return units;
    }
    return reported;
  }

  private put({ TableName, Item }: { TableName: string; Item: Record<string, unknown> }, factor: number): number {
    this.putItems.push(Item);
    const units = writeUnitsFor(dynamoItemBytes(Item));
    const indexes = (this.tables.get(TableName)?.indexes ?? []).filter(
      (index) => Item[index.partitionKey] !== undefined && (!index.sortKey || Item[index.sortKey] !== undefined),
    ).length;
    return units * factor + units * indexes;
  }
}

/** Runs a handler with its output captured (counted, not shown) and its CPU and wall time taken. */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; sample: HandlerSample }> {
  const writes = { bytes: 0, events: 0 };
  const originals = {
    stdout: process.stdout.write.bind(process.stdout),
    stderr: process.stderr.write.bind(process.stderr),
  };
  const counting = ((chunk: string | Uint8Array) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    writes.bytes += Buffer.byteLength(text);
    writes.events += text.split('\n').filter((line) => line.trim()).length;
    return true;
  }) as typeof process.stdout.write;
  process.stdout.write = counting;
  process.stderr.write = counting;
  const cpu = process.cpuUsage();
  const t = process.hrtime.bigint();
  try {
    const value = await fn();
    const wallMs = Number(process.hrtime.bigint() - t) / 1e6;
    const used = process.cpuUsage(cpu);
    return {
      value,
      sample: { cpuMs: (used.user + used.system) / 1000, wallMs, logBytes: writes.bytes, logEvents: writes.events },
    };
  } finally {
    process.stdout.write = originals.stdout;
    process.stderr.write = originals.stderr;
  }
}

export async function call(service: Service, meter: CapacityMeter, request: ApiRequest): Promise<CallSample> {
  const events = apiEvents(request);
  meter.reset();
  const auth = await measured(() =>
    service.authorizer(events.authorizer as never, lambdaContext('authorizer', 'bench')),
  );
  const verdict = auth.value as { isAuthorized?: boolean; context?: unknown };
  if (verdict?.isAuthorized !== true) throw new Error('the authorizer refused at the gateway');
  events.route.requestContext.authorizer = { lambda: verdict.context ?? {} };
  const handler = service.routes[events.routeId];
  const route = await measured(
    () => handler(events.route as never, lambdaContext(events.routeId, 'bench')) as Promise<HandlerResult>,
  );
  return {
    result: route.value,
    authorizer: auth.sample,
    route: route.sample,
    writeUnits: meter.writeUnits,
    readUnits: meter.readUnits,
    putItems: [...meter.putItems],
  };
}

interface EmailRecord {
  subject?: string;
  sender?: string;
  body?: string;
}

/** Real e-mails from the shared data sets, as analyze bodies (text capped at the contract's limits). */
export function realEmails(workspace: string, max: number): string[] {
  const dir = process.env.SAS_DATA_DIR ?? path.resolve(REPO_ROOT, '..', 'shared', 'data');
  const out: string[] = [];
  for (const file of ['spamassassin-dev.jsonl', 'enron-berkeley.jsonl']) {
    let text: string;
    try {
      text = readFileSync(path.join(dir, file), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as EmailRecord;
      const sender = /<([^<>\s]+@[^<>\s]+)>/.exec(e.sender ?? '')?.[1] ?? (e.sender ?? '').trim();
      out.push(
        JSON.stringify({
          workspace_id: workspace,
          source: 'email',
          subject: (e.subject ?? '').slice(0, LIMITS.subjectMax),
          body: (e.body ?? '').slice(0, LIMITS.bodyMax),
          ...(/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(sender) ? { sender } : {}),
        }),
      );
    }
  }
  // An even spread over both files, the same every run.
  const step = Math.max(1, Math.floor(out.length / max));
  return out.filter((_, i) => i % step === 0).slice(0, max);
}

/** The access log line API Gateway writes for one request, filled with typical values. */
function accessLogLineBytes(routeKey: string): number {
  const typical: Record<string, string> = {
    requestId: 'Ab1CdEfGhIjKlMn=',
    ip: '203.0.113.10',
    requestTime: '23/Nov/2026:10:00:00 +0000',
    method: routeKey.split(' ')[0],
    routeKey,
    path: routeKey.split(' ')[1],
    status: '200',
    protocol: 'HTTP/1.1',
    responseLength: '1024',
    responseLatency: '42',
    integrationLatency: '38',
    integrationStatus: '200',
    integrationError: '-',
    authorizerError: '-',
    error: '-',
  };
  const line = Object.fromEntries(Object.keys(ACCESS_LOG_FIELDS).map((k) => [k, typical[k] ?? '-']));
  return Buffer.byteLength(JSON.stringify(line)) + 1;
}

const hasRoute = (method: string, pathOf: string) => ROUTES.some((r) => r.method === method && r.path === pathOf);

export interface Line {
  name: string;
  /** Decisions one call makes: the line is per decision when more than one. */
  decisions: number;
  samples: CallSample[];
  /** What the call cannot do without, in the architecture the project is bound to. */
  floor: { writeUnits: number; readUnits: number };
  routeKey: string;
}

export function resources(line: Line, logRetentionMonths: number): { measured: CallResources; floor: CallResources } {
  const ok = line.samples.filter((s) => s.result.statusCode === 200);
  if (!ok.length) throw new Error(`${line.name}: no call succeeded`);
  const mean = (f: (s: CallSample) => number) => ok.reduce((sum, s) => sum + f(s), 0) / ok.length;
  const billed = (pick: (s: CallSample) => HandlerSample) =>
    median(ok.map((s) => billedMs(pick(s).cpuMs, pick(s).wallMs, LAMBDA_MEMORY_MB)));
  const accessLog = accessLogLineBytes(line.routeKey);
  const measuredResources: CallResources = {
    apiRequests: 1,
    billedMs: [billed((s) => s.authorizer), billed((s) => s.route)],
    memoryMb: LAMBDA_MEMORY_MB,
    writeUnits: mean((s) => s.writeUnits),
    readUnits: mean((s) => s.readUnits),
    // The stack sets Lambda's system log level to WARN: no START/END/REPORT lines (test/cdk/stack.test.ts).
    logBytes: mean((s) => s.authorizer.logBytes + s.route.logBytes) + accessLog,
    logEvents: mean((s) => s.authorizer.logEvents + s.route.logEvents) + 1,
    logRetentionMonths,
  };
  const floor: CallResources = {
    apiRequests: 1,
    billedMs: [1, 1],
    memoryMb: LAMBDA_MEMORY_MB,
    ...line.floor,
    logBytes: accessLog,
    logEvents: 1,
    logRetentionMonths,
  };
  return line.decisions > 1
    ? { measured: perDecision(measuredResources, line.decisions), floor: perDecision(floor, line.decisions) }
    : { measured: measuredResources, floor };
}

export async function benchCost(world: World, quick: boolean): Promise<Figures> {
  const settings = world.handlers.dependencies.settings;
  // Logs and metrics as deployed (INFO, EMF on), so that their bytes are counted.
  const service = createService({ ...settings, logLevel: 'INFO', metricsEnabled: true });
  const meter = new CapacityMeter(
    new Map([
      [world.names.access, ACCESS_TABLE],
      [world.names.decisions, DECISIONS_TABLE],
    ]),
  );
  meter.attach(service);
  const key = await world.newKey();
  const ws = world.workspace;
  const listing = hasRoute('GET', `${API_BASE_PATH}/decisions`);
  // The contract stores each decision (1 unit up to 1 KB) and, once listing exists, its index entry.
  const decisionFloorWrites = 1 + (listing ? 1 : 0);
  const lines: Line[] = [];
  try {
    const emails = realEmails(ws, quick ? 400 : 2_000);
    if (!emails.length) throw new Error('no e-mails found in ../shared/data');
    // Warm-up: the key is cached, the code is compiled, as in a warm Lambda.
    for (const body of emails.slice(0, 50))
      await call(service, meter, { key, method: 'POST', path: `${API_BASE_PATH}/signals/analyze`, body });

    progress(`  cost: analyze over ${emails.length} real e-mails ...`);
    const analyze: CallSample[] = [];
    for (const body of emails)
      analyze.push(await call(service, meter, { key, method: 'POST', path: `${API_BASE_PATH}/signals/analyze`, body }));
    lines.push({
      name: 'analyze',
      decisions: 1,
      samples: analyze,
      floor: { writeUnits: decisionFloorWrites, readUnits: 0 },
      routeKey: `POST ${API_BASE_PATH}/signals/analyze`,
    });

    const some = emails.slice(0, quick ? 100 : 300);
    const idempotent: CallSample[] = [];
    for (const [i, body] of some.entries()) {
      idempotent.push(
        await call(service, meter, {
          key,
          method: 'POST',
          path: `${API_BASE_PATH}/signals/analyze`,
          body,
          idempotencyKey: `cost-${Date.now()}-${i}`,
        }),
      );
    }
    // The record (1 unit) written beside the decision, without a transaction.
    lines.push({
      name: 'analyze_idempotent',
      decisions: 1,
      samples: idempotent,
      floor: { writeUnits: decisionFloorWrites + 1, readUnits: 0 },
      routeKey: `POST ${API_BASE_PATH}/signals/analyze`,
    });

    const batchPath = `${API_BASE_PATH}/signals/analyze-batch`;
    if (hasRoute('POST', batchPath)) {
      const batches: CallSample[] = [];
      for (let b = 0; b < (quick ? 3 : 10); b++) {
        const signals = Array.from(
          { length: 100 },
          (_, i) => JSON.parse(emails[(b * 100 + i) % emails.length]) as unknown,
        );
        batches.push(
          await call(service, meter, { key, method: 'POST', path: batchPath, body: JSON.stringify({ signals }) }),
        );
      }
      lines.push({
        name: 'batch100',
        decisions: 100,
        samples: batches,
        floor: { writeUnits: 100 * decisionFloorWrites, readUnits: 0 },
        routeKey: `POST ${batchPath}`,
      });
    }

    const ids = analyze
      .filter((s) => s.result.statusCode === 200)
      .map((s) => (JSON.parse(s.result.body) as { decision_id: string }).decision_id);
    const gets: CallSample[] = [];
    for (const id of ids.slice(0, quick ? 100 : 300))
      gets.push(await call(service, meter, { key, method: 'GET', path: `${API_BASE_PATH}/decisions/${id}` }));
    // One strongly consistent read of an item under 4 KB: a GET right after analyze must find the decision.
    lines.push({
      name: 'get',
      decisions: 1,
      samples: gets,
      floor: { writeUnits: 0, readUnits: 1 },
      routeKey: `GET ${API_BASE_PATH}/decisions/{decision_id}`,
    });

    if (listing) {
      const pages: CallSample[] = [];
      for (let i = 0; i < (quick ? 30 : 100); i++)
        pages.push(
          await call(service, meter, {
            key,
            method: 'GET',
            path: `${API_BASE_PATH}/decisions`,
            query: `workspace_id=${ws}`,
          }),
        );
      // A page of 20 decisions read from an index (eventually consistent: half a unit per 4 KB).
      const itemBytes = median(decisionItems(analyze).map(dynamoItemBytes));
      lines.push({
        name: 'list_page',
        decisions: 1,
        samples: pages,
        floor: { writeUnits: 0, readUnits: Math.ceil((20 * itemBytes) / 4096) * 0.5 },
        routeKey: `GET ${API_BASE_PATH}/decisions`,
      });
    }

    const feedbackPath = (id: string) => `${API_BASE_PATH}/decisions/${id}/feedback`;
    if (ROUTES.some((r) => r.method === 'POST' && r.path === feedbackPath('{decision_id}'))) {
      const feedback: CallSample[] = [];
      for (const id of ids.slice(0, quick ? 100 : 300)) {
        feedback.push(
          await call(service, meter, {
            key,
            method: 'POST',
            path: feedbackPath(id),
            body: JSON.stringify({ category: 'billing', priority: 'high' }),
          }),
        );
      }
      // Read the decision (eventually consistent) and store the feedback (1 unit).
      lines.push({
        name: 'feedback',
        decisions: 1,
        samples: feedback,
        floor: { writeUnits: 1, readUnits: 0.5 },
        routeKey: `POST ${feedbackPath('{decision_id}')}`,
      });
    }
  } finally {
    service.close();
  }

  const logRetentionMonths = LOG_RETENTION_DAYS / 30;
  const figures: Figures = {};
  for (const line of lines) {
    const failed = line.samples.filter((s) => s.result.statusCode !== 200).length;
    const { measured: m, floor } = resources(line, logRetentionMonths);
    const cost = costPerMillion(m);
    const floorCost = costPerMillion(floor);
    const p = `cost_${line.name}`;
    figures[`${p}_usd_per_million`] = round3(cost.total);
    figures[`${p}_floor_usd_per_million`] = round3(floorCost.total);
    figures[`${p}_floor_ratio`] = round2(cost.total / floorCost.total);
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
    const extraUnits =
      sizes.reduce((sum, b) => sum + writeUnitsFor(b), 0) / sizes.length -
      withoutSketch.reduce((sum, b) => sum + writeUnitsFor(b), 0) / withoutSketch.length;
    // Each extra unit is paid on the table and on the listing index, which copies the whole item.
    figures.cost_sketch_usd_per_million_decisions = round3(
      extraUnits * (listing ? 2 : 1) * PRICES.dynamodbPerMillionWriteUnits,
    );
    // Storage while retained: the item, DynamoDB's 100 bytes of overhead per item, and each index's copy.
    const indexCopies = listing ? 2 : 1;
    const gbMonths = (((median(sizes) + 100) * indexCopies * 1e6) / 1e9) * (settings.decisionRetentionDays / 30);
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
