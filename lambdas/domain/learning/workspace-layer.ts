// The workspace layer: a pure step after the global engine's assessment that applies the workspace's policy and what
// it learned from feedback. A workspace with no policy and nothing learned gets the global assessment unchanged.
// Precedence (docs/partners.md, "Workspace policy" and "Feedback: teach your workspace"): a blocked sender wins over
// everything; policy keywords set the category before learning does; the queue comes from the keyword, then the
// policy's routing, then learning, then the default.
import type { Assessment, Category, Priority, Reason, RecommendedAction } from '../decision';
import { type CompiledPolicy, type PolicyKeyword, bandOf, listsParts, priorityFor } from '../policy';
import { ARCHIVE_CATEGORIES, CATEGORY_QUEUE } from '../engine/reason-codes';
import { archivableCategory, isBulkOrSpam, isSeriousReason } from '../engine/invariants';
import type { Signal } from '../signal';
import type { WorkspaceModel } from './model';
import { type Prediction, predictField } from './predict';
import { learnedConfidence } from './confidence';
import {
  type LearnedPriority,
  learnedPriority,
  learnedPriorityConfidence,
  overridesGlobal,
  scoreInBand,
  unlikeConfidence,
} from './learned-priority';
import { type Sketch, senderParts } from './sketch';

const ACTION_BY_PRIORITY: Record<Priority, RecommendedAction> = {
  critical: 'escalate',
  high: 'respond_now',
  medium: 'respond',
  low: 'review',
};
const VIP_WEIGHT = 20;
/**
 * Keywords whose reason quotes the phrase: the heaviest, and the one that set the category; every other matching
 * keyword still has its reason and weight, unquoted. Quoting all of up to 200 keywords of 100 characters made a
 * decision of 57 KB and a batch's or a list page's answer past Lambda's 6 MB response limit (docs/partners.md,
 * "Workspace policy").
 */
const QUOTED_KEYWORDS = 10;

/** What the layer decides: the assessment (its category and queue may be the workspace's own names) and the policy version. */
interface WorkspaceAssessment extends Omit<Assessment, 'category' | 'queue'> {
  category: string;
  queue: string;
  policy_version: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function learnedMessage(p: Prediction, what: string): string {
  if (p.basis === 'sender') return `${what} ${p.label}: ${plural(p.senderCount, 'correction')} for this sender`;
  if (p.basis === 'domain')
    return `${what} ${p.label}: ${plural(p.domainCount, 'correction')} for this sender's domain`;
  return `${what} ${p.label}: learned from ${plural(p.docs, 'correction')} with similar wording`;
}

const byWeight = (a: Reason, b: Reason) =>
  Math.abs(b.weight) - Math.abs(a.weight) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);

export function applyWorkspace(
  global: Assessment,
  signal: Pick<Signal, 'source' | 'subject' | 'body' | 'sender'>,
  policy: CompiledPolicy,
  model: WorkspaceModel,
  sketch: Sketch | undefined,
  /** signalText(signal), where the caller has it already. */
  text?: string,
): WorkspaceAssessment {
  const learning = policy.learning && model.version > 0 && sketch !== undefined;
  const out: WorkspaceAssessment = { ...global, reasons: [...global.reasons], policy_version: policy.version };
  if (learning) out.model_version = `${global.model_version}+ws.${model.version}`;
  if (policy.empty && !learning) return out;

  const t = policy.thresholds;
  const reasons = out.reasons;
  let score = global.score;
  let category: string = global.category;
  let queue: string | undefined;
  let action: RecommendedAction | undefined;
  let changed = false;

  const sender = senderParts(signal.sender);
  if (listsParts(policy.blocked, sender)) {
    const capped = Math.min(score, t.medium - 1);
    reasons.push({
      code: 'POLICY_BLOCKED_SENDER',
      message: "sender is on the workspace's blocked list",
      weight: capped - score,
    });
    out.score = capped;
    out.priority = 'low';
    out.category = 'spam';
    out.queue = policy.queueOf.get('spam') ?? 'none';
    out.recommended_action = 'archive';
    out.reasons = reasons.sort(byWeight);
    return out;
  }
  if (listsParts(policy.vip, sender)) {
    reasons.push({ code: 'POLICY_VIP_SENDER', message: "sender is on the workspace's VIP list", weight: VIP_WEIGHT });
    score += VIP_WEIGHT;
    changed = true;
  }

  let keywordCategory: { category: string; queue?: string; weight: number } | undefined;
  if (policy.keywords.size) {
    // In the subject or in the body (docs/partners.md, "Workspace policy"): matched in each alone, since a phrase
    // across the two ("payment" ending the subject, "failed" starting the body) is in neither.
    const matched = new Set([
      ...policy.keywords.match(signal.subject ?? ''),
      ...policy.keywords.match(signal.body ?? ''),
    ]);
    let categoryKeyword: PolicyKeyword | undefined;
    for (const keyword of matched) {
      score += keyword.weight;
      changed = true;
      if (keyword.category && (!categoryKeyword || keyword.weight > categoryKeyword.weight)) categoryKeyword = keyword;
    }
    if (categoryKeyword?.category) {
      const { category, queue, weight } = categoryKeyword;
      keywordCategory = { category, queue, weight };
    }
    // The heaviest are quoted (stable: in the order matched among equals, as the reasons are then ordered).
    const quoted = new Set(
      [...matched].sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight)).slice(0, QUOTED_KEYWORDS),
    );
    for (const keyword of matched)
      reasons.push({
        code: 'POLICY_KEYWORD',
        message:
          quoted.has(keyword) || keyword === categoryKeyword
            ? `mentions "${keyword.phrase}" (workspace keyword)`
            : 'mentions a workspace keyword',
        weight: keyword.weight,
      });
  }
  if (keywordCategory) {
    category = keywordCategory.category;
    queue = keywordCategory.queue;
  }

  let learnedQueue: Prediction | undefined;
  let learnedAction: Prediction | undefined;
  let learnedCategory: Prediction | undefined;
  let learnedPriorityChance: LearnedPriority | undefined;
  if (learning) {
    const c = keywordCategory ? undefined : predictField(model, 'category', sketch);
    if (c && c.label !== category) {
      category = c.label;
      reasons.push({ code: 'LEARNED_CATEGORY', message: learnedMessage(c, 'category'), weight: 0 });
      changed = true;
    }
    // When what was learned decides the category (replacing or confirming the global one), the confidence is the
    // learned prediction's (lambdas/domain/learning/confidence.ts), set at the end; the global engine's otherwise.
    if (c) learnedCategory = c;
    const q = predictField(model, 'queue', sketch);
    if (q) learnedQueue = q;
    // The learned priority (learned-priority.ts): for a signal like what the workspace was taught, it starts from the
    // workspace's own label frequencies and decides the band; inside it, the global score is placed by the workspace's
    // expected rank and its own order, so every learned signal shares one order, and the policy's VIP and keyword points
    // then move it within the band. Its chance is the decision's confidence. The learned priority changes the
    // decision (and so the action) only where it moves the band.
    const lp = learnedPriority(model, sketch, signal, text);
    if (lp) {
      learnedPriorityChance = lp;
      const [lo, hi] = bandOf(lp.label, t);
      const target = Math.max(lo, Math.min(hi, scoreInBand(lp, [lo, hi], global.score) + score - global.score));
      if (target !== score) {
        reasons.push({
          code: 'LEARNED_PRIORITY',
          // The count is the workspace's whole history (the prior), not the signals like this one: said as it is.
          message: `priority ${lp.label}: learned from the workspace's ${plural(lp.total, 'labeled signal')}, ${lp.docs} of them ${lp.label}`,
          weight: target - score,
        });
        if (overridesGlobal(lp, priorityFor(Math.max(0, Math.min(100, score)), t))) changed = true;
        score = target;
      }
    }
    const a = predictField(model, 'recommended_action', sketch);
    if (a) {
      action = a.label as RecommendedAction;
      learnedAction = a;
    }
  }

  const trusted = listsParts(policy.trusted, sender);
  if (trusted)
    reasons.push({ code: 'POLICY_TRUSTED_SENDER', message: "sender is on the workspace's trusted list", weight: 0 });
  score = Math.round(score);
  // Invariant 5 in the workspace's own bands: spam and bulk mail stay below the workspace's critical, whatever its
  // thresholds, VIP and keyword points or learned priority (docs/decision-engine.md, "Invariants"): the engine's own
  // cap where it applied one, else one said the same way. Cut from the sum before its clamp, so the score stays 20
  // plus its reasons' weights.
  const held = reasons.findIndex((r) => r.code === 'BULK_NEVER_ESCALATED');
  if ((held >= 0 || isBulkOrSpam(global.reasons, global.category)) && score >= t.critical) {
    const cut = score - (t.critical - 1);
    if (held >= 0) reasons[held] = { ...reasons[held], weight: reasons[held].weight - cut };
    else reasons.push({ code: 'BULK_NEVER_ESCALATED', message: 'spam or bulk mail is never escalated', weight: -cut });
    score = t.critical - 1;
  }
  score = Math.max(0, Math.min(100, score));
  const priority = priorityFor(score, t);
  if (trusted && category === 'spam') category = 'general';
  // The engine did not archive a signal of this archive category (an invariant: a person asking, a doubted vote; or
  // a priority above low): the layer's own rule must not archive it either, whatever VIP or keyword points or the
  // workspace's thresholds moved; only the workspace's explicit word (a keyword's or a learned category, a learned
  // action, a blocked sender) does (docs/partners.md, "Workspace policy").
  // What the workspace learned decides the category (replacing the global one, or agreeing with it).
  const categoryLearned = learnedCategory !== undefined && learnedCategory.label === category;
  const ownWord = keywordCategory !== undefined || categoryLearned;
  const heldBack =
    !ownWord &&
    category === global.category &&
    ARCHIVE_CATEGORIES.has(global.category) &&
    global.recommended_action !== 'archive';
  // Invariant 4 holds after learning too: a stated serious problem the engine kept out of the archive (an outage, a
  // breach, a legal threat) is not archived by a learned category or action. Learning that reaches such a signal is
  // wording it shares with the history ("Please find attached"), not the workspace's word about it; a keyword's
  // archive category is that word (docs/partners.md, "Workspace policy"), and still archives.
  const serious = global.recommended_action !== 'archive' && global.reasons.some(isSeriousReason);
  // Invariant 1 too, for the workspace's own word as for the engine's: never a task, a support message only as spam
  // or an auto-reply, an internal or CRM signal never as spam (only a blocked sender archives anything).
  const channelAllows = archivableCategory(signal.source, category as Category);
  const archivable =
    ARCHIVE_CATEGORIES.has(category as never) &&
    channelAllows &&
    !trusted &&
    !heldBack &&
    !(serious && !keywordCategory);
  // A taught action stands only where the contract lets it beside the decided priority (docs/partners.md, "The
  // decision"): `archive` beside `low`, any other only as that priority's own action. Else the band decides.
  if (
    action !== undefined &&
    !(action === 'archive' ? priority === 'low' && !serious && channelAllows : action === ACTION_BY_PRIORITY[priority])
  )
    action = undefined;
  if (!action || (trusted && action === 'archive')) {
    action = archivable && priority === 'low' ? 'archive' : ACTION_BY_PRIORITY[priority];
    if (!changed && !trusted && priority === global.priority && category === global.category)
      action = global.recommended_action;
  }
  out.score = score;
  out.priority = priority;
  out.category = category;
  const ownQueue = queue ?? policy.queueOf.get(category);
  if (ownQueue === undefined && learnedQueue && learnedQueue.label !== global.queue)
    reasons.push({ code: 'LEARNED_QUEUE', message: learnedMessage(learnedQueue, 'queue'), weight: 0 });
  out.queue =
    ownQueue ??
    learnedQueue?.label ??
    (category === global.category
      ? global.queue
      : // Own names only: `constructor`, a valid category name, would read Object.prototype's and leave no queue.
        Object.hasOwn(CATEGORY_QUEUE, category)
        ? (CATEGORY_QUEUE as Record<string, string>)[category]
        : global.queue);
  out.recommended_action = action;
  // An action the workspace taught, where it is not the engine's: said, and stated no surer than that teaching (below).
  const taughtAction = learnedAction && action === learnedAction.label && action !== global.recommended_action;
  if (taughtAction)
    reasons.push({ code: 'LEARNED_ACTION', message: learnedMessage(learnedAction!, 'action'), weight: 0 });
  // The sender's corrections, where they decided a field that stands in the decision.
  const queueLearned = ownQueue === undefined && learnedQueue !== undefined && out.queue === learnedQueue.label;
  const actionLearned = learnedAction !== undefined && action === learnedAction.label;
  const strongest = [
    categoryLearned ? learnedCategory : undefined,
    queueLearned ? learnedQueue : undefined,
    actionLearned ? learnedAction : undefined,
  ].find((x) => x && x.basis !== 'text');
  if (strongest) {
    const n = strongest.basis === 'sender' ? strongest.senderCount : strongest.domainCount;
    reasons.push({
      code: 'LEARNED_SENDER',
      message: `${plural(n, 'correction')} for this ${strongest.basis === 'sender' ? 'sender' : "sender's domain"}`,
      weight: 0,
    });
  }
  out.reasons = reasons.sort(byWeight);
  if (categoryLearned) {
    const learned = learnedConfidence(learnedCategory!);
    // Teaching that agrees with the engine confirms it: one agreeing correction must not halve what it confirms.
    out.confidence = category === global.category ? Math.max(global.confidence, learned) : learned;
  }
  // A workspace that taught priorities: how likely its taught priority is this one (category and priority must both
  // be right, so with a learned category the lower of the two). A signal unlike its history keeps the global priority,
  // and how often the workspace gave that priority weighs in beside the global confidence.
  const p = learnedPriorityChance
    ? learnedPriorityConfidence(learnedPriorityChance, priority)
    : learning
      ? unlikeConfidence(model, priority, global.confidence)
      : undefined;
  if (p !== undefined) out.confidence = categoryLearned ? Math.min(out.confidence, p) : p;
  if (taughtAction) out.confidence = Math.min(out.confidence, learnedConfidence(learnedAction!));
  return out;
}
