// Held-out messages whose exact text is also on the side the spam model was fitted and its cuts chosen on (TRAIN or
// DEV). The SMS collection and SpamAssassin's folders repeat messages word for word, and the splits are by position,
// so a test line may have its copy in training: its answer is recall of that copy, not a measure of later mail. The
// goal rows are judged on the test messages without a copy; the rows over all of them stay as context.
import { EVAL_SPLIT, type Scored } from './labeled';
import { loadSms, loadSpamAssassin } from '../data-splits';

/** Whether a held-out SMS line, SpamAssassin message or its web-form copy has its text on the fitted side. */
export function copiedInFitting(): (s: Scored) => boolean {
  const sms = new Set(
    loadSms()
      .filter((r) => r.split !== EVAL_SPLIT && r.split !== 'test')
      .map((r) => r.text),
  );
  const mail = new Set(
    loadSpamAssassin()
      .filter((r) => r.split !== EVAL_SPLIT && r.split !== 'test')
      .map((r) => r.body.trim()),
  );
  return (s) => {
    const body = typeof s.signal.body === 'string' ? s.signal.body : '';
    if (s.corpus === 'sms') return sms.has(body);
    if (s.corpus === 'spamassassin' || s.corpus === 'web-form spam') return mail.has(body.trim());
    return false;
  };
}
