// The load test's requests (bin/load.ts): what each autocannon request sends, built from the mix in load-mix.ts, and
// how each answer is tallied (status per kind, unexpected answers, contract violations, replays, decision ids); and
// the autocannon run that sends the mix, shared by the load test and the soak (bin/soak.ts).
import { randomUUID } from 'node:crypto';
import { generateApiKey } from '../lambdas/domain/api-key';
import { type Kind, expectedStatuses, pick, pickKind, validSignal } from './load-mix';

interface Shared {
  key: string;
  unknownKeys: string[];
  /** Idempotency-Keys used again and again, each always with its own body: the first call creates, the rest replay. */
  replayPool: { idempotencyKey: string; body: string }[];
  /** Decision ids answered with 200 by analyze, with the score they were answered with. */
  decisions: Map<string, number>;
  decisionIds: string[];
}

interface Tally {
  statusCounts: Record<string, number>;
  byKind: Record<string, Record<string, number>>;
  unexpected: { kind: Kind; status: number; body: string }[];
  contractViolations: number;
  replayed: number;
  replayMismatches: number;
  getMismatches: number;
}

/** A run's shared state: 20 unknown keys, 50 replay slots whose Idempotency-Keys start with `idPrefix`. */
export function newShared(key: string, idPrefix: string): Shared {
  return {
    key,
    unknownKeys: Array.from({ length: 20 }, () => generateApiKey('live')),
    replayPool: Array.from({ length: 50 }, () => ({
      idempotencyKey: `${idPrefix}-${randomUUID()}`,
      body: JSON.stringify(validSignal()),
    })),
    decisions: new Map(),
    decisionIds: [],
  };
}

export function newTally(): Tally {
  return {
    statusCounts: {},
    byKind: {},
    unexpected: [],
    contractViolations: 0,
    replayed: 0,
    replayMismatches: 0,
    getMismatches: 0,
  };
}

/** Answers with a 5xx status, over all kinds. */
export function serverErrorCount(tally: Tally): number {
  return Object.entries(tally.statusCounts).reduce((n, [s, c]) => n + (Number(s) >= 500 ? c : 0), 0);
}

// autocannon ships no types (and @types/autocannon is not installed): the little used here, typed by hand.
type Histogram = Record<'total' | 'max' | 'p50' | 'p90' | 'p99', number>;
interface AutocannonResult {
  duration: number;
  requests: Histogram;
  latency: Histogram;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const loadAutocannon = async (): Promise<Autocannon> => {
  const name = 'autocannon'; // a variable: keeps the compiler from looking for type declarations
  const mod = (await import(name)) as { default?: Autocannon } & Autocannon;
  return mod.default ?? mod;
};

/** Sends the mix from `connections` connections for `duration` seconds, every answer recorded into the tally. */
export async function runMix(
  shared: Shared,
  tally: Tally,
  run: { url: string; connections: number; duration: number },
): Promise<AutocannonResult> {
  const autocannon = await loadAutocannon();
  return autocannon({
    ...run,
    timeout: 10,
    requests: [
      {
        setupRequest: (req: Record<string, unknown>, context: RequestContext) => {
          const r = buildRequest(shared, context);
          return { ...req, method: r.method, path: r.path, headers: r.headers, body: r.body ?? '' };
        },
        onResponse: (status: number, body: string, context: RequestContext, headers: Record<string, unknown>) =>
          record(shared, tally, context, status, body, headers),
      },
    ],
  });
}

interface RequestContext {
  kind?: Kind;
  replayIndex?: number;
  expectedId?: string;
}

function buildRequest(
  shared: Shared,
  ctx: RequestContext,
): { method: string; path: string; headers: Record<string, string>; body?: string } {
  const kind = pickKind();
  ctx.kind = kind;
  ctx.replayIndex = undefined;
  ctx.expectedId = undefined;
  const auth = { authorization: `Bearer ${shared.key}` };
  /** POST analyze with the key (or other headers) and `body`. */
  const analyze = (body: string, headers: Record<string, string> = auth) => ({
    method: 'POST',
    path: '/api/v1/signals/analyze',
    headers: { ...headers, 'content-type': 'application/json' },
    body,
  });
  switch (kind) {
    case 'analyze':
      return analyze(JSON.stringify(validSignal()));
    case 'analyze_idempotent_new':
      return analyze(JSON.stringify(validSignal()), { ...auth, 'idempotency-key': randomUUID() });
    case 'analyze_idempotent_replay': {
      const i = Math.floor(Math.random() * shared.replayPool.length);
      ctx.replayIndex = i;
      const { idempotencyKey, body } = shared.replayPool[i];
      return analyze(body, { ...auth, 'idempotency-key': idempotencyKey });
    }
    case 'get_decision': {
      const id = shared.decisionIds.length ? pick(shared.decisionIds) : 'dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S';
      ctx.expectedId = shared.decisionIds.length ? id : undefined;
      return { method: 'GET', path: `/api/v1/decisions/${id}`, headers: auth };
    }
    case 'bad_key': {
      const bad = pick([
        `Bearer ${pick(shared.unknownKeys)}`,
        `Bearer ${shared.key.slice(0, -1)}${shared.key.endsWith('0') ? '1' : '0'}`,
        'Bearer sas_live_short',
        `Basic ${shared.key}`,
        '',
      ]);
      return analyze(JSON.stringify(validSignal()), bad ? { authorization: bad } : {});
    }
    case 'wrong_workspace':
      return analyze(JSON.stringify({ ...validSignal(), workspace_id: 'ws_not_granted' }));
    case 'invalid_json':
      return analyze(pick(['{', '{"workspace_id":"ws_load_a",}', 'null null', '{"a":NaN}', '']));
    case 'validation':
      return analyze(
        JSON.stringify(
          pick([
            { workspace_id: 'ws_load_a', source: 'fax', subject: 'x' },
            { workspace_id: 'ws_load_a', source: 'email' },
            { workspace_id: 'ws_load_a', source: 'email', subject: 'x', sender: 'not an address' },
            { workspace_id: 'ws_load_a', source: 'task', subject: 'x', colour: 'red' },
            { workspace_id: 'ws_load_a', source: 'task', subject: 'x', received_at: 'yesterday' },
          ]),
        ),
      );
    case 'unknown_route':
      return {
        method: pick(['GET', 'POST']),
        path: pick(['/api/v1/nope', '/api/v2/signals/analyze', '/', '/api/v1/signals']),
        headers: {},
      };
  }
}

export function record(
  shared: Shared,
  tally: Tally,
  ctx: RequestContext,
  status: number,
  body: string,
  rawHeaders: Record<string, unknown>,
) {
  // autocannon passes header names as the server wrote them.
  const headers: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(rawHeaders)) headers[name.toLowerCase()] = value;
  const kind = ctx.kind ?? 'analyze';
  tally.statusCounts[status] = (tally.statusCounts[status] ?? 0) + 1;
  const counts = (tally.byKind[kind] ??= {});
  counts[status] = (counts[status] ?? 0) + 1;
  if (!expectedStatuses(kind).includes(status) && tally.unexpected.length < 1_000)
    tally.unexpected.push({ kind, status, body: body.slice(0, 300) });
  if (
    !headers['x-request-id'] ||
    !(typeof headers['content-type'] === 'string' && headers['content-type'].startsWith('application/json'))
  )
    tally.contractViolations++;

  let parsed: { decision_id?: unknown; score?: unknown } | undefined;
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    tally.contractViolations++;
    return;
  }
  if (status !== 200) return;
  const id = typeof parsed?.decision_id === 'string' ? parsed.decision_id : undefined;
  if (!id) {
    tally.contractViolations++;
    return;
  }
  if (kind === 'get_decision') {
    if (ctx.expectedId !== undefined && id !== ctx.expectedId) tally.getMismatches++;
    return;
  }
  if (headers['idempotent-replayed'] === 'true') tally.replayed++;
  if (!shared.decisions.has(id)) {
    shared.decisions.set(id, Number(parsed?.score));
    shared.decisionIds.push(id);
  }
  if (ctx.replayIndex !== undefined) {
    const entry = shared.replayPool[ctx.replayIndex] as { firstId?: string };
    entry.firstId ??= id;
    if (entry.firstId !== id) tally.replayMismatches++;
  }
}
