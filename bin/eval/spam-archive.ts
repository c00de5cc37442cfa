// Issue 31's archive figures, on the held-out splits (bin/data-splits.ts; never tuned on): the SMS collection's
// macro-F1, ordinary mail archived per source, the Thai SMS, the per-channel archive cuts the spam model carries,
// and the model's reliability per source (its calibrated P(spam) against the labels, 10 bins). No text is printed.
import { scoreSignal } from '../../lambdas/domain/engine';
import { spamArchiveThreshold, spamVerdict } from '../../lambdas/domain/engine/spam-model';
import { TokenBuffer } from '../../lambdas/domain/engine/tokens';
import { loadThaiSms } from '../data-splits';
import type { Copies } from './copies';
import { reliabilityReport, type DevScore } from '../spam-cuts';
import { FIXED_NOW, type Case, type Scored } from './labeled';
import { figure, type Figure } from './report';

const archived = (s: { assessment: { recommended_action: string } }) => s.assessment.recommended_action === 'archive';
const escalated = (s: Scored) => s.assessment.recommended_action === 'escalate' || s.assessment.priority === 'critical';

/** Macro-F1 of archive-as-spam over spam and ham, with spam recall and precision. */
function macroF1(list: Scored[]): { f1: number; recall: number; precision: number } {
  const tp = list.filter((s) => s.label === 'spam' && archived(s)).length;
  const fp = list.filter((s) => s.label !== 'spam' && archived(s)).length;
  const fn = list.filter((s) => s.label === 'spam' && !archived(s)).length;
  const tn = list.length - tp - fp - fn;
  const f = (a: number, b: number, c: number) => (2 * a) / Math.max(2 * a + b + c, 1);
  return {
    f1: (f(tp, fp, fn) + f(tn, fn, fp)) / 2,
    recall: tp / Math.max(tp + fn, 1),
    precision: tp / Math.max(tp + fp, 1),
  };
}

const AT = FIXED_NOW.toISOString();
/** The Thai SMS test split as support_message, as a partner's SMS gateway would send them. */
const thaiCases = (): Case[] =>
  loadThaiSms()
    .filter((r) => r.split === 'test')
    .map((r) => ({
      corpus: 'sms',
      label: r.spam ? 'spam' : 'ham',
      group: 'thai',
      signal: { workspace_id: 'eval', source: 'support_message', body: r.text, received_at: AT },
      now: FIXED_NOW,
    }));

/** The model's calibrated P(spam) of a case as the engine reads it (subject, body, sender). */
function pOf(buf: TokenBuffer, c: Case): number {
  buf.reset();
  buf.add(typeof c.signal.subject === 'string' ? c.signal.subject : '', 0, 1000);
  buf.add(typeof c.signal.body === 'string' ? c.signal.body : '', 1, 20_000);
  return spamVerdict(buf, typeof c.signal.sender === 'string' ? c.signal.sender : undefined).probability;
}

/** `copies`: whether a held-out message has its text on the fitted side (copies.ts). */
export function spamArchiveFigures(scored: Scored[], copies: Copies): { figures: Figure[]; lines: string[] } {
  const of = (corpus: string, label?: string) =>
    scored.filter((s) => s.corpus === corpus && s.group !== 'thai' && (label === undefined || s.label === label));
  const sms = of('sms');
  const m = macroF1(sms);
  const unique = sms.filter((s) => !copies.exact(s));
  const u = macroF1(unique);
  const unseen = sms.filter((s) => !copies.near(s));
  const n = macroF1(unseen);
  const thai: Scored[] = [];
  let errors = 0;
  for (const c of thaiCases()) {
    try {
      const assessment = scoreSignal(c.signal, c.now);
      thai.push({ ...c, assessment, right: archived({ assessment }) === (c.label === 'spam') });
    } catch {
      errors++;
    }
  }
  const thaiHam = thai.filter((s) => s.label === 'ham');
  // Some of the Thai collection's messages are in English only (codes, notices): `en` is right for them.
  const thaiScript = thai.filter((s) => /[\u0e01-\u0e5b]/.test(String(s.signal.body)));
  const thaiSpam = thai.filter((s) => s.label === 'spam');
  const share = (list: Scored[], test: (s: Scored) => boolean) => list.filter(test).length / Math.max(list.length, 1);
  const ordinary: [string, Scored[]][] = [
    ['SpamAssassin easy_ham (email)', of('spamassassin', 'easy_ham')],
    ['Enron (email)', of('enron')],
    ['SMS ham (support_message)', of('sms', 'ham')],
    ['Thai SMS ham (support_message)', thaiHam],
  ];
  const figures: Figure[] = [
    figure(
      `SMS test lines macro-F1 (${sms.length}, as support_message; ${sms.length - unique.length} copied in TRAIN/DEV)`,
      m.f1,
      'context',
    ),
    figure('  SMS spam recall (all test lines)', m.recall, 'context'),
    figure('  SMS spam precision (all test lines)', m.precision, 'context'),
    figure(`SMS test lines with no copy in TRAIN/DEV: macro-F1 (${unique.length})`, u.f1, 'context'),
    figure('  SMS spam recall', u.recall, 'context'),
    figure('  SMS spam precision', u.precision, 'context'),
    figure(`SMS test lines with no copy up to case, punctuation, digits: macro-F1 (${unseen.length})`, n.f1, '>= 0.95'),
    figure('  SMS spam recall (no near copy)', n.recall, '>= 0.9'),
    figure('  SMS spam precision (no near copy)', n.precision, '>= 0.98'),
    ...ordinary.map(([name, list]) =>
      figure(`ordinary archived: ${name}, ${list.length}`, share(list, archived), '<= 0.005'),
    ),
    figure(
      `hard ham (spam-like ordinary mail) escalated (of ${of('spamassassin', 'hard_ham').length})`,
      of('spamassassin', 'hard_ham').filter(escalated).length,
      '0',
    ),
    figure(
      `spam escalated (e-mail, web form, SMS: of ${[...of('spamassassin', 'spam'), ...of('web-form spam'), ...of('sms', 'spam')].length})`,
      [...of('spamassassin', 'spam'), ...of('web-form spam'), ...of('sms', 'spam')].filter(escalated).length,
      '0',
    ),
    figure(`Thai SMS test (${thai.length + errors}): errors`, errors, '0'),
    figure(
      `  Thai language th or und (of ${thaiScript.length} in Thai script)`,
      share(thaiScript, (s) => s.assessment.language === 'th' || s.assessment.language === 'und'),
      '>= 0.95',
    ),
    figure(
      `  Thai ham (bank, operator, codes) escalated (of ${thaiHam.length})`,
      thaiHam.filter(escalated).length,
      '0',
    ),
    figure(
      `  Thai ham respond_now or higher (of ${thaiHam.length})`,
      share(thaiHam, (s) => s.assessment.priority === 'high' || escalated(s)),
      '<= 0.01',
    ),
    figure(`  Thai spam -> archive (of ${thaiSpam.length}; where the text shows it)`, share(thaiSpam, archived), ''),
  ];
  const lines = [
    `Archive cuts on the calibrated P(spam), per channel (spam-model.json, chosen on DEV): email ${spamArchiveThreshold('email')}, support_message ${spamArchiveThreshold('support_message')} (6-19 known words: ${spamArchiveThreshold('short_message')})`,
  ];
  const buf = new TokenBuffer();
  const rows: DevScore[] = [];
  const add = (source: string, list: Case[]) => {
    for (const c of list) rows.push({ source, spam: c.label === 'spam', p: pOf(buf, c) });
  };
  add('sa email', [...of('spamassassin', 'spam'), ...of('spamassassin', 'easy_ham')]);
  add('sa web form', of('web-form spam'));
  add('sms', sms);
  add('thai', thai);
  add('enron', of('enron'));
  add('banking77', of('banking77'));
  lines.push(
    ...reliabilityReport(
      'Spam model reliability per held-out source (calibrated P(spam) -> spam share; recall and ordinary at the e-mail cut)',
      rows,
      spamArchiveThreshold('email'),
    ),
  );
  return { figures, lines };
}
