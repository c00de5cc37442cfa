// Scoring phases 5 and 6 (score.ts runs them): choosing the category from the reasons' evidence, and the reasons
// that depend on the chosen category; with the draft helpers every phase uses.
import { type Category } from '../decision';
import type { Signal, Source } from '../signal';
import { FREE_MAIL, asNumber, own, parseTime, type Meta, type SenderInfo } from './metadata';
import type { Draft } from './draft';
import { ARCHIVE_CATEGORIES, CATEGORY_PRECEDENCE, infoOf, type ReasonCode } from './reason-codes';

/** Least evidence (sum of |weights|) before an archive category or `personal` may be chosen. */
const ARCHIVE_MIN_EVIDENCE = 15;
const PERSONAL_MIN_EVIDENCE = 10;
const HOUR = 3_600_000;
const TASK_HEAD_START = 15;

export const hasCode = (drafts: Draft[], code: ReasonCode) => drafts.some((d) => d.code === code);
export function dropWhere(drafts: Draft[], drop: (d: Draft) => boolean): void {
  for (let k = drafts.length - 1; k >= 0; k--) if (drop(drafts[k])) drafts.splice(k, 1);
}
export const isProblem = (d: Draft) =>
  d.code === 'TAG_TOPIC'
    ? d.problem === true
    : infoOf(d.code).problem === true && (d.code !== 'SUPPORT_REQUEST' || d.weight >= 20);
export const categoryOf = (d: Draft): Category | undefined =>
  d.code === 'TAG_TOPIC' ? d.category : infoOf(d.code).category;

const catStrongest = new Float64Array(CATEGORY_PRECEDENCE.length);
const catTotal = new Float64Array(CATEGORY_PRECEDENCE.length);
const catEvidence = new Float64Array(CATEGORY_PRECEDENCE.length);
const CATEGORY_RANK = Object.fromEntries(CATEGORY_PRECEDENCE.map((c, i) => [c, i])) as Record<Category, number>;

/** Phase 5: the category with the most evidence (its strongest reason plus half of the others). */
export function chooseCategory(
  drafts: Draft[],
  source: Source,
  md: Meta | null,
): { category: Category; best: number; second: number } {
  catStrongest.fill(0);
  catTotal.fill(0);
  for (const d of drafts) {
    const cat = categoryOf(d);
    if (!cat || d.discounted === true) continue;
    // A task, a mail or an event its author rated high is not an incident for that: only an alert's rating is.
    if (d.authorLabel === true && source !== 'internal') continue;
    const c = CATEGORY_RANK[cat];
    const w = Math.abs(d.weight);
    catStrongest[c] = Math.max(catStrongest[c], w);
    catTotal[c] += w;
  }
  const evidence = catEvidence;
  for (let c = 0; c < evidence.length; c++) evidence[c] = catStrongest[c] + (catTotal[c] - catStrongest[c]) / 2;
  // A task is a task unless its text says more: a broken product (support), degraded service or an outage
  // (incident), a vulnerability (security) each outweigh this head start.
  if (source === 'task') evidence[CATEGORY_RANK.task] += TASK_HEAD_START;
  const amount = Math.max(asNumber(own(md, 'amount')) ?? 0, asNumber(own(md, 'deal_value')) ?? 0);
  if (source === 'crm_event' && amount > 0) evidence[CATEGORY_RANK.sales_opportunity] += 15;
  if (source === 'internal' && drafts.some((d) => d.code.startsWith('SEVERITY_') && d.weight > 0))
    evidence[CATEGORY_RANK.incident] += 1;
  let category: Category = 'general';
  let best = 0;
  let second = 0;
  for (let c = 0; c < CATEGORY_PRECEDENCE.length; c++) {
    const cat = CATEGORY_PRECEDENCE[c];
    const e = evidence[c];
    if (ARCHIVE_CATEGORIES.has(cat) && e < ARCHIVE_MIN_EVIDENCE) continue;
    if (cat === 'personal' && e < PERSONAL_MIN_EVIDENCE) continue;
    if (e > best) {
      second = best;
      best = e;
      category = cat;
    } else if (e > second) second = e;
  }
  return { category, best, second };
}

/** Phase 6: reasons that depend on the category and on the time of analysis. */
export function categoryDrafts(
  drafts: Draft[],
  category: Category,
  signal: Signal,
  sender: SenderInfo | null,
  source: Source,
  md: Meta | null,
  now: Date,
): void {
  // Impact words ("everyone", "production") only amplify a problem that affects users.
  if (category !== 'incident' && category !== 'security' && category !== 'support')
    dropWhere(drafts, (d) => d.code === 'IMPACT_SCOPE');
  // Topics do not pile up: the category's strongest topic counts fully, the strongest of the others half (of any
  // category: an outage beside a cancellation is the outage), further ones not at all.
  const topics = drafts.filter((d) => infoOf(d.code).topic === true && d.weight > 0 && d.discounted !== true);
  topics.sort((a, b) => b.weight - a.weight || (a.code < b.code ? -1 : 1));
  const first = topics.findIndex((d) => infoOf(d.code).category === category);
  if (first > 0) topics.unshift(...topics.splice(first, 1));
  for (let k = 1; k < topics.length; k++) {
    if (k === 1) {
      topics[k].weight = Math.round(topics[k].weight / 2);
      topics[k].message += ' (second topic, half weight)';
    } else drafts.splice(drafts.indexOf(topics[k]), 1);
  }
  const amount = Math.max(asNumber(own(md, 'amount')) ?? 0, asNumber(own(md, 'deal_value')) ?? 0);
  if (
    amount >= 10_000 &&
    (category === 'sales_opportunity' || category === 'churn_risk' || category === 'billing' || source === 'crm_event')
  ) {
    const w = amount >= 100_000 ? 20 : 10;
    drafts.push({
      code: 'DEAL_VALUE_HIGH',
      weight: w,
      message: `metadata amount/deal_value is at least ${w === 20 ? '100,000' : '10,000'}`,
    });
  }
  if (category === 'sales_opportunity' && sender && sender.domain.includes('.')) {
    if (FREE_MAIL.has(sender.domain))
      drafts.push({ code: 'SENDER_FREE_MAIL', weight: -5, message: 'sales lead from a free-mail address' });
    else if (!hasCode(drafts, 'NO_REPLY_SENDER') && !hasCode(drafts, 'BULK_SENDER'))
      drafts.push({ code: 'SENDER_BUSINESS_DOMAIN', weight: 5, message: 'sales lead from a business domain' });
  }
  const nowMs = now instanceof Date ? now.getTime() : NaN;
  if (ARCHIVE_CATEGORIES.has(category) || !Number.isFinite(nowMs)) return;
  const due = parseTime(own(md, 'due_at'));
  if (due !== null) {
    if (due < nowMs) drafts.push({ code: 'DUE_OVERDUE', weight: 25, message: 'metadata.due_at has passed' });
    else if (due - nowMs <= 24 * HOUR)
      drafts.push({ code: 'DUE_WITHIN_24H', weight: 15, message: 'metadata.due_at is within 24 hours' });
    else if (due - nowMs <= 72 * HOUR)
      drafts.push({ code: 'DUE_WITHIN_3_DAYS', weight: 5, message: 'metadata.due_at is within 3 days' });
  }
  const received = parseTime(signal.received_at);
  if (received !== null) {
    const waited = nowMs - received;
    if (waited > 24 * HOUR)
      drafts.push({ code: 'WAITING_OVER_24H', weight: 10, message: 'has waited more than 24 hours' });
    else if (waited > 4 * HOUR)
      drafts.push({ code: 'WAITING_OVER_4H', weight: 5, message: 'has waited more than 4 hours' });
  }
}
