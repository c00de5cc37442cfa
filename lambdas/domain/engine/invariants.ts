// The promises the global engine keeps whatever its weights, models or lexicon say (issue 22, item 1;
// docs/decision-engine.md, "Invariants"). The scorer applies them last, as plain predicates, so tuning cannot break
// them; test/unit/engine-invariants.test.ts checks each over generated and real-shaped signals.
//   1. Archive only where no-human mail exists: spam evidence (the spam model, spam wording) counts only for `email`
//      and `support_message`; `task` is never archived; `internal` and `crm_event` are never archived as spam; a
//      support message only as spam or an auto-reply.
//   2. Each channel archives on the spam model's word from its own cut on the calibrated P(spam) (the model file's
//      archive_at, chosen for the error budget; archive-guards.ts names and the eval measures every guard).
//   3. A person asking for something (a question, or writing in the first person) is not archived, unless the model's
//      P(spam) clears the channel's cut or it is an auto-reply ("I am out of the office").
//   4. A stated serious problem (outage, data loss, security incident, legal threat, blocker, critical condition) is
//      never archived, unless the model is confident the whole long text is spam (its alarm words are then content).
//      A workspace policy may still block a sender: that is not the global engine's decision.
//   5. Spam and bulk mail are never escalated: their score stays below `critical`.
import type { Category } from '../decision';
import type { Source } from '../signal';
import type { Draft } from './draft';
import { codesWhere, isReasonCode, type ReasonCode } from './reason-codes';
import { tokenHashesMany } from './token-hashes';
import type { TokenBuffer } from './tokens';

/** Channels where spam exists: the spam model runs and spam wording counts only here. */
export const SPAM_CHANNELS: ReadonlySet<Source> = new Set<Source>(['email', 'support_message']);

/**
 * Categories a channel may archive: `task` none (work by construction); `internal` and `crm_event` no spam; a
 * `support_message` (a person filled in a form) only spam and auto-replies, as newsletters and notifications do not
 * fill in forms.
 */
export function archivableCategory(source: Source, category: Category): boolean {
  if (source === 'task') return false;
  if (source === 'support_message') return category === 'spam' || category === 'auto_reply';
  if (source === 'internal' || source === 'crm_event') return category !== 'spam';
  return true;
}

/** Reasons that state a serious problem, from this weight on (the `serious` trait in reason-codes.ts). */
const SERIOUS: ReadonlySet<ReasonCode> = codesWhere((i) => i.serious === true);
const SERIOUS_MIN_WEIGHT = 15;
/** A reason stating a serious problem (invariant 4): an outage, a security incident, a legal threat, ... */
export const isSeriousReason = (d: { code: string; weight: number }): boolean =>
  isReasonCode(d.code) && SERIOUS.has(d.code) && d.weight >= SERIOUS_MIN_WEIGHT;
export const statesSeriousProblem = (drafts: readonly Draft[]): boolean => drafts.some(isSeriousReason);

/**
 * Evidence of bulk or spam mail: what must never be escalated (the `bulk` trait in reason-codes.ts), in the drafts
 * while scoring or in a decision's reasons afterwards (the workspace layer reads those).
 */
const BULK: ReadonlySet<string> = codesWhere((i) => i.bulk === true);
export const isBulkOrSpam = (drafts: readonly { code: string }[], category: string): boolean =>
  category === 'spam' || category === 'newsletter' || drafts.some((d) => BULK.has(d.code));
/** The highest score bulk or spam mail may reach: `high` at most, never `critical` (escalate). */
export const BULK_SCORE_CAP = 79;

// First-person words (en, de, fr, es, it, nl, pt): a person writing about their own need.
const FIRST_PERSON =
  "i me my mine i'm i've ich mich mir mein meine je moi mon ma mes yo mi mis io mio mia ik mij mijn eu meu minha";
let firstPerson: Set<number> | null = null;
/** Tokens read for a person's voice: the opening of a message says who writes. */
const VOICE_TOKENS = 80;

/** A question mark: ASCII, full-width (Chinese, Japanese) or Arabic. */
const QUESTION = /[?\uff1f\u061f]/;

/** A question, or first-person writing, in the opening of the subject and body. */
export function personAsking(buf: TokenBuffer): boolean {
  if (QUESTION.test(buf.texts[0]) || QUESTION.test(buf.texts[1].slice(0, 2_000))) return true;
  firstPerson ??= new Set(tokenHashesMany(FIRST_PERSON.split(' '), false).h1);
  for (let i = 0, n = 0; i < buf.count && n < VOICE_TOKENS; i++) {
    if (buf.field[i] > 1) break;
    n++;
    if (firstPerson.has(buf.h1[i])) return true;
  }
  return false;
}
