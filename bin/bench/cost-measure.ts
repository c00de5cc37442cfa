// The cost section's measurements: what one call of the service used here (request units from a metering client,
// handler CPU and wait time, log bytes) and the resources a contract line costs, measured and at its floor.
// benchCost (cost.ts) and the learned-model line (cost-learned.ts) price what these return.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { LAMBDA_MEMORY_MB } from '../../lib/lambda-bundling';
import { ACCESS_LOG_FIELDS } from '../../lib/stack';
import {
  ACCESS_TABLE,
  DECISIONS_TABLE,
  type IndexDefinition,
  type TableDefinition,
} from '../../lambdas/contract/tables';
import { LIMITS } from '../../lambdas/http/signal-schema';
import { consumedUnits } from '../../lambdas/stores/dynamodb-client';
import { type Service, createService } from '../../lambdas/service';
import type { World } from './world';
import {
  type CallResources,
  billedMs,
  costPerMillion,
  dynamoItemBytes,
  perDecision,
  writeUnitsFor,
} from './cost-model';
import { type Figures, progress, readDataFile } from './common';
import { ANALYZE_PATH, type ApiRequest, type HandlerResult, apiEvents, inProcess } from './requests';

/** The stack's default log retention (lib/app.ts, context `logRetentionDays`): a year, as the controls ask. */
const LOG_RETENTION_DAYS = 365;

interface HandlerSample {
  cpuMs: number;
  wallMs: number;
  logBytes: number;
  logEvents: number;
}

export interface CallSample {
  result: HandlerResult;
  /** The route's key as API Gateway names it (`POST /api/v1/signals/analyze`): its access log line. */
  routeKey: string;
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
 * KB of the entry each index the item lands in copies (its keys and projected attributes). An update inside a
 * transaction is billed by the item's size too, doubled: read back after the call (settle), out of its timing, on the
 * set-up's own client, and priced by its size then (the service's transaction updates grow their items, so that is
 * the larger of before and after). Other updates and deletes count what DynamoDB Local reports (which writes an
 * index only when a key or projected attribute changes, as DynamoDB does).
 */
export class CapacityMeter {
  writeUnits = 0;
  readUnits = 0;
  /** Write units as DynamoDB Local reports them (updates are billed by the whole item). */
  reportedWriteUnits = 0;
  putItems: Record<string, unknown>[] = [];
  private readonly tables: Map<string, TableDefinition>;
  /** Transaction updates not priced yet (settle). */
  private updated: { TableName: string; Key: Record<string, unknown> }[] = [];
  private readonly reader: World['client'];

  /** A meter of the world's two tables, priced by their definitions. */
  constructor(world: World) {
    this.tables = new Map([
      [world.names.access, ACCESS_TABLE],
      [world.names.decisions, DECISIONS_TABLE],
    ]);
    this.reader = world.client;
  }

  reset(): void {
    this.writeUnits = this.readUnits = this.reportedWriteUnits = 0;
    this.putItems = [];
    this.updated = [];
  }

  /** Prices the transaction updates since the last settle by their items' size now: call it after each call. */
  async settle(): Promise<void> {
    const updated = this.updated;
    this.updated = [];
    for (const { TableName, Key } of updated) {
      const { Item } = await this.reader.send(new GetCommand({ TableName, Key, ConsistentRead: true }));
      this.writeUnits += 2 * writeUnitsFor(Item ? dynamoItemBytes(Item) : 0);
    }
  }

  /** Meters every call of `client` until the returned function is called. */
  attachClient(client: Service['dependencies']['client']): () => void {
    const name = `benchCapacityMeter${Math.random()}`;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as Record<string, unknown>;
        input.ReturnConsumedCapacity = 'INDEXES';
        const name = String(context.commandName ?? '').replace(/Command$/, '');
        const out = await next(args);
        const reported = consumedUnits(out.output);
        if (/^(GetItem|BatchGetItem|TransactGetItems|Query|Scan)$/.test(name)) this.readUnits += reported;
        else {
          this.writeUnits += this.priced(name, input, reported);
          this.reportedWriteUnits += reported;
        }
        return out;
      },
      { step: 'initialize', name },
    );
    return () => {
      client.middlewareStack.remove(name);
    };
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
      type Update = { TableName: string; Key: Record<string, unknown> };
      for (const t of (input.TransactItems ?? []) as { Put?: Put; Update?: Update; ConditionCheck?: unknown }[]) {
        if (t.Put) units += this.put(t.Put, 2);
        else if (t.Update) this.updated.push({ TableName: t.Update.TableName, Key: t.Update.Key });
        else if (!t.ConditionCheck) units += 2;
      }
      return units;
    }
    return reported;
  }

  private put({ TableName, Item }: { TableName: string; Item: Record<string, unknown> }, factor: number): number {
    this.putItems.push(Item);
    const units = writeUnitsFor(dynamoItemBytes(Item));
    const table = this.tables.get(TableName);
    let indexUnits = 0;
    for (const index of table?.indexes ?? []) {
      const entry = indexEntry(Item, index, table!.partitionKey);
      if (entry) indexUnits += writeUnitsFor(dynamoItemBytes(entry));
    }
    return units * factor + indexUnits;
  }
}

/** What an index copies of an item (its keys and projected attributes), or undefined when the item is not in it. */
export function indexEntry(
  item: Record<string, unknown>,
  index: IndexDefinition,
  tableKey: string,
): Record<string, unknown> | undefined {
  if (item[index.partitionKey] === undefined || (index.sortKey && item[index.sortKey] === undefined)) return undefined;
  if (!index.projected) return item;
  const names = [tableKey, index.partitionKey, ...(index.sortKey ? [index.sortKey] : []), ...index.projected];
  return Object.fromEntries(names.filter((n) => item[n] !== undefined).map((n) => [n, item[n]]));
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

async function call(service: Service, meter: CapacityMeter, request: ApiRequest): Promise<CallSample> {
  const events = apiEvents(request);
  meter.reset();
  const samples: Partial<Record<'authorizer' | 'route', HandlerSample>> = {};
  const result = await inProcess(service, events, async (step, run) => {
    const { value, sample } = await measured(run);
    samples[step] = sample;
    return value;
  });
  await meter.settle();
  return {
    result,
    routeKey: events.route.requestContext.routeKey,
    authorizer: samples.authorizer!,
    route: samples.route!,
    writeUnits: meter.writeUnits,
    readUnits: meter.readUnits,
    putItems: [...meter.putItems],
  };
}

/** Real e-mails from the shared data sets, as analyze bodies (text capped at the contract's limits). */
export function realEmails(workspace: string, max: number): string[] {
  const out: string[] = [];
  for (const file of ['spamassassin-dev.jsonl', 'enron-berkeley.jsonl']) {
    for (const line of readDataFile(file).split('\n')) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as { subject?: string; sender?: string; body?: string };
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

/** A line's price per million calls (or decisions), its floor's, and their ratio, as `cost_<name>_...` figures. */
export function priceFigures(name: string, measured: CallResources, floor: CallResources): Figures {
  const [cost, floorCost] = [costPerMillion(measured).total, costPerMillion(floor).total];
  return {
    [`cost_${name}_usd_per_million`]: cost,
    [`cost_${name}_floor_usd_per_million`]: floorCost,
    [`cost_${name}_floor_ratio`]: cost / floorCost,
  };
}

export interface Line {
  name: string;
  /** Decisions one call makes: the line is per decision when more than one. */
  decisions: number;
  samples: CallSample[];
  /** What the call cannot do without, in the architecture the project is bound to. */
  floor: { writeUnits: number; readUnits: number };
}

export function resources(line: Line): { measured: CallResources; floor: CallResources } {
  const ok = line.samples.filter((s) => s.result.statusCode === 200);
  if (!ok.length) throw new Error(`${line.name}: no call succeeded`);
  const logRetentionMonths = LOG_RETENTION_DAYS / 30;
  const mean = (f: (s: CallSample) => number) => ok.reduce((sum, s) => sum + f(s), 0) / ok.length;
  // The mean, not the median: a million calls are billed for all their time, slow ones (a fold's) included.
  const billed = (pick: (s: CallSample) => HandlerSample) =>
    mean((s) => billedMs(pick(s).cpuMs, pick(s).wallMs, LAMBDA_MEMORY_MB));
  const accessLog = accessLogLineBytes(ok[0].routeKey);
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

/** A request without its key: the metered service's own key is added. */
type MeteredCall = (request: Omit<ApiRequest, 'key'>) => Promise<CallSample>;

/**
 * Runs `measure` with a service that logs and emits metrics as deployed (INFO, EMF on), so their bytes are counted,
 * its DynamoDB calls metered against the two tables' definitions, and a new key; the service is closed after.
 */
export async function withMeteredService<T>(
  world: World,
  measure: (call: MeteredCall, service: Service) => Promise<T>,
): Promise<T> {
  const service = createService({ ...world.service.dependencies.settings, logLevel: 'INFO', metricsEnabled: true });
  const meter = new CapacityMeter(world);
  meter.attachClient(service.dependencies.client);
  try {
    const key = await world.newKey();
    return await measure((request) => call(service, meter, { key, ...request }), service);
  } finally {
    service.close();
  }
}

/** The contract stores each decision (1 unit up to 1 KB) and its listing index entry. */
export const ANALYZE_FLOOR = { writeUnits: 2, readUnits: 0 };
/** Feedback reads the decision (eventually consistent) and stores the feedback (1 unit). */
export const FEEDBACK_FLOOR = { writeUnits: 1, readUnits: 0.5 };

/**
 * The analyze line over `emails`, after 50 of them as warm-up (the key cached, the code compiled, as in a warm
 * Lambda); `what` names it in the progress line.
 */
export async function analyzeSamples(call: MeteredCall, emails: string[], what: string): Promise<CallSample[]> {
  for (const body of emails.slice(0, 50)) await call({ method: 'POST', path: ANALYZE_PATH, body });
  progress(`  cost: ${what} over ${emails.length} real e-mails ...`);
  const samples: CallSample[] = [];
  for (const body of emails) samples.push(await call({ method: 'POST', path: ANALYZE_PATH, body }));
  return samples;
}
