// Held-out messages whose text is also on the side the spam model was fitted and its cuts chosen on (TRAIN or DEV).
// The SMS collection and SpamAssassin's folders repeat messages, and the splits are by position, so a test line may
// have its copy in training: its answer is recall of that copy, not a measure of later mail. Copies are found two
// ways: the exact text, and the text up to case, punctuation, spacing and digits (a spam template sent again with
// another number or in capitals is the same message). The goal rows are judged on the test messages with neither;
// the rows over all of them, and without exact copies only, stay as context.
import { EVAL_SPLIT, type Scored } from './labeled';
import { loadSms, loadSpamAssassin } from '../data-splits';

/** A text up to case, punctuation, spacing and digits. */
const nearCopyKey = (text: string): string =>
  text
    .toLowerCase()
    .replace(/\p{N}/gu, '#')
    .replace(/[^\p{L}\p{M}#]+/gu, ' ')
    .trim();

export interface Copies {
  /** The same text exactly. */
  exact: (s: Scored) => boolean;
  /** The same text up to case, punctuation, spacing and digits (exact copies included). */
  near: (s: Scored) => boolean;
}

/** Whether a held-out SMS line, SpamAssassin message or its web-form copy has its text on the fitted side. */
export function copiesInFitting(): Copies {
  const fittedSms = loadSms()
    .filter((r) => r.split !== EVAL_SPLIT && r.split !== 'test')
    .map((r) => r.text);
  const fittedMail = loadSpamAssassin()
    .filter((r) => r.split !== EVAL_SPLIT && r.split !== 'test')
    .map((r) => r.body.trim());
  const sms = new Set(fittedSms);
  const mail = new Set(fittedMail);
  const nearSms = new Set(fittedSms.map(nearCopyKey));
  const nearMail = new Set(fittedMail.map(nearCopyKey));
  const body = (s: Scored) => (typeof s.signal.body === 'string' ? s.signal.body : '');
  const isMail = (s: Scored) => s.corpus === 'spamassassin' || s.corpus === 'web-form spam';
  return {
    exact: (s) => (s.corpus === 'sms' ? sms.has(body(s)) : isMail(s) && mail.has(body(s).trim())),
    near: (s) =>
      s.corpus === 'sms' ? nearSms.has(nearCopyKey(body(s))) : isMail(s) && nearMail.has(nearCopyKey(body(s).trim())),
  };
}
