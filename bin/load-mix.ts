// The load test's request mix (bin/load.ts): which kinds of request, how often, what each may answer, and the
// varied valid signals it sends. Random on purpose: a load test explores; it asserts nothing a test would.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Each kind of request: its weight in percent (70 valid analyze, 20 of them with an Idempotency-Key; 10 GET; 20
 * invalid) and the statuses it may answer.
 */
const KINDS = {
  analyze: { weight: 56, expected: [200] },
  analyze_idempotent_new: { weight: 7, expected: [200] },
  analyze_idempotent_replay: { weight: 7, expected: [200] },
  // 404 only when no decision exists yet (the very first requests) and a made-up id is asked for.
  get_decision: { weight: 10, expected: [200, 404] },
  bad_key: { weight: 4, expected: [401] },
  wrong_workspace: { weight: 4, expected: [403] },
  invalid_json: { weight: 4, expected: [400] },
  validation: { weight: 4, expected: [400] },
  unknown_route: { weight: 4, expected: [404] },
};
export type Kind = keyof typeof KINDS;

export const expectedStatuses = (kind: Kind): number[] => KINDS[kind].expected;

export const WORKSPACES = ['ws_load_a', 'ws_load_b'];
const SOURCES = ['email', 'task', 'crm_event', 'support_message', 'internal'] as const;
/** Subjects with their bodies (by position), senders and customer tiers the valid signals are made of. */
const {
  subjects: SUBJECTS,
  bodies: BODIES,
  senders: SENDERS,
  tiers: TIERS,
} = JSON.parse(readFileSync(path.join(__dirname, 'load-texts.json'), 'utf8')) as Record<
  'subjects' | 'bodies' | 'senders' | 'tiers',
  string[]
>;

export function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

export function pickKind(): Kind {
  let r = Math.random() * 100;
  for (const [kind, { weight }] of Object.entries(KINDS)) {
    r -= weight;
    if (r < 0) return kind as Kind;
  }
  return 'analyze';
}

/** A valid signal, varied: every source, optional sender, metadata and received_at. */
export function validSignal(): Record<string, unknown> {
  const i = Math.floor(Math.random() * SUBJECTS.length);
  const source = pick(SOURCES);
  const signal: Record<string, unknown> = {
    workspace_id: pick(WORKSPACES),
    source,
    subject: SUBJECTS[i],
    body: BODIES[i],
  };
  if (source === 'email' || Math.random() < 0.3) signal.sender = pick(SENDERS);
  if (Math.random() < 0.6) {
    signal.metadata = {
      customer_tier: pick(TIERS),
      ...(Math.random() < 0.3 ? { vip: true } : {}),
      ...(Math.random() < 0.3 ? { tags: [pick(['urgent', 'billing', 'login', 'sales'])] } : {}),
      ...(Math.random() < 0.3 ? { amount: Math.floor(Math.random() * 200_000) } : {}),
      ...(Math.random() < 0.2
        ? { due_at: new Date(Date.now() + (Math.random() - 0.3) * 5 * 86_400_000).toISOString() }
        : {}),
    };
  }
  if (Math.random() < 0.5)
    signal.received_at = new Date(Date.now() - Math.floor(Math.random() * 3 * 86_400_000)).toISOString();
  return signal;
}
