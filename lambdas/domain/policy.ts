// A workspace's policy (docs/partners.md, "Workspace policy") as the domain uses it: the stored document, its defaults,
// and a compiled form (sender sets, one keyword automaton) built once per cached policy so the hot path only looks
// things up. Pure.
import { DEFAULT_RESPONSE_MINUTES, type Priority } from './decision';
import { withAsciiDomain } from './engine/metadata';
import { type KeywordMatcher, keywordMatcher } from './keyword-matcher';
import { keywordPhrase } from './keyword-text';

export const NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

export interface PolicyKeyword {
  phrase: string;
  weight: number;
  category?: string;
  queue?: string;
}

interface PolicyCategory {
  name: string;
  queue?: string;
  description?: string;
}

/** The policy exactly as a client sent it: every field optional, defaults never written in. */
export interface WorkspacePolicy {
  vip_senders?: string[];
  trusted_senders?: string[];
  blocked_senders?: string[];
  keywords?: PolicyKeyword[];
  categories?: PolicyCategory[];
  routing?: Record<string, string>;
  thresholds?: { critical?: number; high?: number; medium?: number };
  response_minutes?: Partial<Record<Priority, number>>;
  learning?: boolean;
}

/**
 * Every policy setting, and whether holding it lets a policy change a decision in the workspace layer (a policy none
 * of whose settings does is `empty`: the layer is skipped). Keyed by WorkspacePolicy, which policy-schema.ts holds
 * equal to the PUT schema: a new setting does not compile until it is given its entry here, and the store keeps
 * exactly these settings (POLICY_FIELDS).
 */
const SETTING_APPLIES: { [K in keyof WorkspacePolicy]-?: (value: NonNullable<WorkspacePolicy[K]>) => boolean } = {
  vip_senders: (list) => list.length > 0,
  trusted_senders: (list) => list.length > 0,
  blocked_senders: (list) => list.length > 0,
  keywords: (list) => list.length > 0,
  categories: (list) => list.some((c) => Boolean(c.queue)),
  routing: (map) => Object.keys(map).length > 0,
  thresholds: () => true,
  // respond_by is made from it after the layer (buildDecision).
  response_minutes: () => false,
  // Learning engages the layer through the model, not the policy (applyWorkspace).
  learning: () => false,
};

/** The policy's settings, in the contract's order. */
export const POLICY_FIELDS = Object.keys(SETTING_APPLIES) as readonly (keyof WorkspacePolicy)[];

const applies = (policy: WorkspacePolicy, field: keyof WorkspacePolicy): boolean => {
  const value = policy[field];
  return value !== undefined && (SETTING_APPLIES[field] as (value: unknown) => boolean)(value);
};

/** The settings of a stored or sent policy, without anything else it holds, in the contract's order. */
export function policySettings(stored: Record<string, unknown>): WorkspacePolicy {
  const out: Record<string, unknown> = {};
  for (const field of POLICY_FIELDS) if (stored[field] !== undefined) out[field] = stored[field];
  return out;
}

export interface StoredPolicy extends WorkspacePolicy {
  version: number;
  updated_at: string | null;
}

export const DEFAULT_THRESHOLDS = { critical: 80, high: 60, medium: 35 } as const;

/** The policy of a workspace that never set one. */
export const EMPTY_POLICY: StoredPolicy = { version: 0, updated_at: null };

interface SenderList {
  addresses: Set<string>;
  domains: Set<string>;
}

export interface CompiledPolicy {
  version: number;
  vip: SenderList;
  trusted: SenderList;
  blocked: SenderList;
  /** All keywords in one automaton: matching is linear in the text, whatever the policy (keyword-matcher.ts). */
  keywords: KeywordMatcher<PolicyKeyword>;
  /** Queue per category, from `categories[].queue` or `routing`. */
  queueOf: Map<string, string>;
  thresholds: { critical: number; high: number; medium: number };
  responseMinutes: Record<Priority, number>;
  learning: boolean;
  /** Whether anything in it can change a decision (a fresh workspace skips the layer). */
  empty: boolean;
}

function senderList(entries: readonly string[] | undefined): SenderList {
  const list: SenderList = { addresses: new Set(), domains: new Set() };
  for (const entry of entries ?? []) {
    // As parseSender reads a sender: composed, lower-cased, its domain in ASCII form. The policy stored keeps the
    // entry as written.
    const e = withAsciiDomain(entry.trim().normalize('NFC').toLowerCase());
    if (e.startsWith('@')) list.domains.add(e.slice(1));
    else list.addresses.add(e);
  }
  return list;
}

/**
 * Whether a sender (parsed by senderParts) is listed: by itself, or by its domain or any parent domain (`@acme.com`
 * covers `eu.acme.com`).
 */
export function listsParts(list: SenderList, parts: { address: string; domain: string } | undefined): boolean {
  if (!parts) return false;
  if (list.addresses.has(parts.address)) return true;
  let domain = parts.domain;
  for (;;) {
    if (list.domains.has(domain)) return true;
    const dot = domain.indexOf('.');
    if (dot < 0) return false;
    domain = domain.slice(dot + 1);
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whole-word, case-insensitive: the phrase must not continue into a letter, a combining mark or a digit on either side.
 * The definition of a match, one phrase at a time, on text as keywords read it (`keywordText(text)`: tests compare
 * keywordMatcher with it); decisions use keywordMatcher.
 */
export function keywordPattern(phrase: string): RegExp {
  const text = keywordPhrase(phrase);
  // Nothing left (a phrase of invisible characters, which the schema refuses) matches nothing, as in keywordMatcher.
  if (text === '') return /(?!)/;
  const words = text.split(/\s+/).map(escapeRegExp).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}_])${words}(?![\\p{L}\\p{M}\\p{N}_])`, 'iu');
}

export function compilePolicy(policy: StoredPolicy): CompiledPolicy {
  const queueOf = new Map<string, string>();
  for (const [category, queue] of Object.entries(policy.routing ?? {})) queueOf.set(category, queue);
  for (const c of policy.categories ?? []) if (c.queue) queueOf.set(c.name, c.queue);
  return {
    version: policy.version,
    vip: senderList(policy.vip_senders),
    trusted: senderList(policy.trusted_senders),
    blocked: senderList(policy.blocked_senders),
    keywords: keywordMatcher(policy.keywords ?? []),
    queueOf,
    thresholds: { ...DEFAULT_THRESHOLDS, ...policy.thresholds },
    responseMinutes: { ...DEFAULT_RESPONSE_MINUTES, ...policy.response_minutes },
    learning: policy.learning !== false,
    empty: !POLICY_FIELDS.some((field) => applies(policy, field)),
  };
}

export function priorityFor(score: number, t: CompiledPolicy['thresholds']): Priority {
  if (score >= t.critical) return 'critical';
  if (score >= t.high) return 'high';
  if (score >= t.medium) return 'medium';
  return 'low';
}

/** The score range of a priority band under these thresholds. */
export function bandOf(priority: Priority, t: CompiledPolicy['thresholds']): [number, number] {
  if (priority === 'critical') return [t.critical, 100];
  if (priority === 'high') return [t.high, t.critical - 1];
  if (priority === 'medium') return [t.medium, t.high - 1];
  return [0, t.medium - 1];
}
