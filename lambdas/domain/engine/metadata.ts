// Reading metadata and the sender: metadata may be any JSON, so nothing here throws; what does not fit is ignored.
// Severity words, customer tiers, tags and sender kinds, each in one table.
import { domainToASCII } from 'node:url';
import type { Category } from '../decision';
import { isCalendarDate, parseInstant } from '../timestamps';

export type Meta = Record<string, unknown>;

export function own(md: Meta | null, key: string): unknown {
  if (md === null) return undefined;
  return Object.prototype.hasOwnProperty.call(md, key) ? md[key] : undefined;
}

export function shortString(v: unknown, max = 100): string | null {
  return typeof v === 'string' && v.length <= max ? v.trim().toLowerCase() : null;
}

export function asNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.length <= 40 && /^\s*\d[\d,_ ]*(?:\.\d+)?\s*$/.test(v)) {
    const n = Number(v.replace(/[,_ ]/g, ''));
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** The first `maxItems` strings of an array, or of one comma-separated string (a long one is cut, not dropped). */
export function stringList(v: unknown, maxItems = 50): string[] {
  if (typeof v === 'string') v = v.split(',', maxItems);
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (let i = 0; i < v.length && i < maxItems; i++) {
    const s = shortString(v[i], 320);
    if (s) out.push(s);
  }
  return out;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:[Zz]|[+-]\d{2}:?\d{2}))?$/;

/**
 * A date that exists and a time of day within 00:00:00 to 23:59:59, as `received_at` takes them: Date.parse rolls
 * 2026-02-30 over to March 2 and 24:00 to the next day.
 */
function onTheCalendar(s: string): boolean {
  if (!isCalendarDate(Number(s.slice(0, 4)), Number(s.slice(5, 7)), Number(s.slice(8, 10)))) return false;
  if (s.length === 10) return true;
  const seconds = s[16] === ':' ? Number(s.slice(17, 19)) : 0;
  return Number(s.slice(11, 13)) <= 23 && Number(s.slice(14, 16)) <= 59 && seconds <= 59;
}

/** Milliseconds since the epoch, or null. Date-only values mean the end of that day (UTC). */
export function parseTime(v: unknown): number | null {
  if (typeof v !== 'string' || v.length > 40) return null;
  const s = v.trim();
  if (!RFC3339.test(s) || !onTheCalendar(s)) return null;
  if (s.length === 10) {
    const t = Date.parse(`${s}T23:59:59.999Z`);
    return Number.isFinite(t) ? t : null;
  }
  // Date-times must carry an offset (checked above), so parsing does not depend on the host's zone.
  if (!/[Zz]$|[+-]\d{2}:?\d{2}$/.test(s)) return null;
  const t = parseInstant(s.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isFinite(t) ? t : null;
}

export const FREE_MAIL = new Set([
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'yahoo.co.uk',
  'yahoo.fr',
  'yahoo.de',
  'yahoo.es',
  'ymail.com',
  'hotmail.com',
  'hotmail.co.uk',
  'hotmail.fr',
  'hotmail.de',
  'hotmail.es',
  'outlook.com',
  'outlook.de',
  'outlook.fr',
  'outlook.es',
  'live.com',
  'live.de',
  'live.fr',
  'msn.com',
  'aol.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'gmx.de',
  'gmx.net',
  'gmx.com',
  'gmx.at',
  'gmx.ch',
  'web.de',
  't-online.de',
  'freenet.de',
  'orange.fr',
  'wanadoo.fr',
  'free.fr',
  'laposte.net',
  'sfr.fr',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'protonmail.com',
  'proton.me',
  'pm.me',
  'zoho.com',
  'qq.com',
  '163.com',
  '126.com',
  'libero.it',
  'terra.es',
  'telefonica.net',
  'mail.com',
  'fastmail.com',
  'tutanota.com',
  'hey.com',
]);
export const NO_REPLY_LOCAL =
  /^(?:no-?reply|noreply|do-?not-?reply|donotreply|notifications?|notify|mailer-?daemon|postmaster|bounces?|auto-?confirm|automated|auto-?mailer|alerts?|monitoring|system)(?:[-+._0-9].*)?$/;
export const BULK_LOCAL =
  /^(?:newsletters?|news|marketing|promo|promos|promotions?|offers?|deals|digest|updates|mailer|mailing|campaigns?|email-?marketing)(?:[-+._0-9].*)?$/;
/** A bulk-mail host: mailing services send from a subdomain named for it (`news.example.com`, `newsletter.shop.example`). */
export const bulkSubdomain = (domain: string): boolean => {
  const labels = domain.split('.');
  return labels.length >= 3 && BULK_LOCAL.test(labels[0]);
};
const ADDRESS_IN_BRACKETS = /<\s*([^<>\s@]+@[^<>\s@]+)\s*>/;
// An apostrophe may stand inside a local part (o'neil@acme.com, which the API takes as an address), never first: a
// quote around an address ('ann@acme.com') is not part of it.
const BARE_ADDRESS = /([^\s<>"',;:@][^\s<>",;:@]*@[^\s<>"',;:@]+)/;

export interface SenderInfo {
  address: string;
  local: string;
  domain: string;
}

/** A character outside ASCII: a domain holding one is written in Unicode. */
export const NON_ASCII = /[^\p{ASCII}]/u;

/**
 * A domain in its ASCII form (`münchen.de` as `xn--mnchen-3ya.de`), so that both spellings of it are one domain to the
 * sender lists, metadata.vip_senders and learning (docs/partners.md, "Workspace policy"). Only a domain holding other
 * than ASCII is rewritten: an ASCII one is in that form already, and stays exactly as sent (domainToASCII would read
 * `1.2.3` as the IPv4 address 1.2.0.3); one that is no valid domain name stays as written too.
 */
function asciiDomain(domain: string): string {
  return NON_ASCII.test(domain) ? domainToASCII(domain) || domain : domain;
}

/** An address, `@domain` or bare domain with its domain in ASCII form (asciiDomain). */
export function withAsciiDomain(entry: string): string {
  const at = entry.lastIndexOf('@');
  return entry.slice(0, at + 1) + asciiDomain(entry.slice(at + 1));
}

export function parseSender(sender: unknown): SenderInfo | null {
  if (typeof sender !== 'string' || sender.length === 0) return null;
  const s = sender.length > 400 ? sender.slice(0, 400) : sender;
  // With a `<`, only a bracketed address is the sender's: one in the display name (`ceo@acme.com <>`) is a name.
  const m = s.includes('<') ? ADDRESS_IN_BRACKETS.exec(s) : BARE_ADDRESS.exec(s);
  if (!m) return null;
  // Composed (NFC), so an address sent decomposed is the one a policy or a workspace's history holds; its domain in
  // ASCII form, so one sent in Unicode is the one a policy holds in ASCII, and the reverse.
  // The trailing dots go after: the ASCII form of `。` (an ideographic full stop) is one.
  const address = withAsciiDomain(m[1].normalize('NFC').toLowerCase()).replace(/\.+$/, '');
  const at = address.lastIndexOf('@');
  return { address, local: address.slice(0, at), domain: address.slice(at + 1) };
}

export const TIER_VIP = new Set([
  'enterprise',
  'strategic',
  'key',
  'key account',
  'platinum',
  'vip',
  'tier 1',
  'tier1',
]);
export const TIER_PAID = new Set([
  'pro',
  'professional',
  'business',
  'premium',
  'paid',
  'team',
  'teams',
  'growth',
  'plus',
  'standard',
  'gold',
  'silver',
  'scale',
  'corporate',
]);
export const TIER_FREE = new Set(['free', 'trial', 'freemium', 'community', 'free trial', 'hobby']);

type Severity = 'SEVERITY_CRITICAL' | 'SEVERITY_HIGH' | 'SEVERITY_MEDIUM' | 'SEVERITY_LOW';
const SEVERITY_WORDS: Record<string, Severity> = {};
for (const w of [
  'sev0',
  'sev1',
  'sev-0',
  'sev-1',
  'sev 0',
  'sev 1',
  'p0',
  'p1',
  'critical',
  'crit',
  'fatal',
  'emergency',
  'disaster',
  'blocker',
  // The top level of trackers that do not say critical: Zendesk's and Redmine's urgent, Redmine's immediate, Jira's
  // highest.
  'urgent',
  'immediate',
  'highest',
  '0',
  '1',
])
  SEVERITY_WORDS[w] = 'SEVERITY_CRITICAL';
for (const w of ['sev2', 'sev-2', 'sev 2', 'p2', 'high', 'major', 'error', 'severe', '2'])
  SEVERITY_WORDS[w] = 'SEVERITY_HIGH';
for (const w of ['sev3', 'sev-3', 'sev 3', 'p3', 'medium', 'moderate', 'warning', 'warn', 'minor', '3'])
  SEVERITY_WORDS[w] = 'SEVERITY_MEDIUM';
for (const w of [
  'sev4',
  'sev5',
  'sev-4',
  'sev-5',
  'sev 4',
  'sev 5',
  'p4',
  'p5',
  'low',
  'info',
  'informational',
  'notice',
  'debug',
  'trivial',
  'lowest',
  '4',
  '5',
])
  SEVERITY_WORDS[w] = 'SEVERITY_LOW';

/**
 * The author's own severity: `metadata.severity`, else `metadata.priority` (a tracker's label), when it names one
 * (SEVERITY_WORDS); anything else is ignored, as other metadata of the wrong shape is, and leaves the engine to rank.
 */
export function authorSeverity(
  md: Meta | null,
): { key: 'severity' | 'priority'; label: string; code: Severity } | null {
  for (const key of ['severity', 'priority'] as const) {
    const raw = own(md, key);
    const label = typeof raw === 'number' ? (Number.isInteger(raw) ? String(raw) : null) : shortString(raw, 20);
    const code = label !== null ? SEVERITY_WORDS[label.replace(/[_]/g, '-')] : undefined;
    if (code) return { key, label: label!, code };
  }
  return null;
}

export type TagKind = { category: Category; weight: number; problem: boolean } | 'urgent' | 'vip';
export const TAGS = new Map<string, TagKind>();
const tag = (kind: TagKind, words: string) => words.split(' ').forEach((w) => TAGS.set(w, kind));
tag('urgent', 'urgent asap p0 p1 critical sev1 sev0 high-priority priority escalation escalated blocker emergency');
tag('vip', 'vip');
tag({ category: 'incident', weight: 15, problem: true }, 'outage incident down downtime degraded degradation');
tag({ category: 'security', weight: 15, problem: true }, 'security breach phishing vulnerability malware fraud');
tag({ category: 'legal', weight: 15, problem: true }, 'legal gdpr compliance lawsuit privacy dsar');
tag({ category: 'billing', weight: 15, problem: true }, 'billing payment payments invoice payment-failed chargeback');
tag({ category: 'churn_risk', weight: 15, problem: true }, 'churn churn-risk cancellation cancel at-risk refund');
tag(
  { category: 'sales_opportunity', weight: 15, problem: false },
  'sales lead opportunity upsell renewal deal pricing demo',
);
tag({ category: 'support', weight: 10, problem: true }, 'bug support help question issue problem');
tag({ category: 'task', weight: 10, problem: false }, 'task todo to-do action-item');
tag({ category: 'newsletter', weight: -15, problem: false }, 'newsletter marketing promo promotion bulk');
tag({ category: 'notification', weight: -15, problem: false }, 'notification automated digest no-reply');
tag({ category: 'auto_reply', weight: -15, problem: false }, 'auto-reply autoreply ooo out-of-office');
tag({ category: 'spam', weight: -20, problem: false }, 'spam junk scam');
