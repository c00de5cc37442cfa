// Measures the decision engine on held-out labeled real data and prints every figure beside its goal (not a test:
// nothing here fails). The split is fixed in bin/data-splits.ts; only its TEST part (and Enron's DEV part, which
// tuned nothing but the spam model's calibration) is read here. No message text is ever printed.
//   npm run eval                       human-readable report
//   npm run --silent eval -- --json    exactly one JSON object on stdout
import { ACTIONS, PRIORITIES } from '../../lambdas/domain/decision';
import { MODEL_VERSION, scoreSignal } from '../../lambdas/domain/engine';
import { DATA_DIR } from '../data-splits';
import { ALERT_CASES, ALERT_LEVEL, TICKET_CASES, TICKET_LEVEL, alertSignal, spearman, ticketSignal } from './hand-written-cases';
import { EVAL_SPLIT, agrees, scoreHeldOut, type Scored } from './labeled';
import { figure, fmtCounts, inc, pct, printFigures, reliabilityTable, type Counts, type Figure } from './report';

const JSON_OUT = process.argv.includes('--json');

function spamAssassin(scored: Scored[]): { figures: Figure[]; detail: Record<string, Counts> } {
  const rows = scored.filter((s) => s.corpus === 'spamassassin');
  const of = (label: string) => rows.filter((s) => s.label === label);
  const share = (list: Scored[], test: (s: Scored) => boolean) => list.filter(test).length / Math.max(list.length, 1);
  const archived = (s: Scored) => s.assessment.recommended_action === 'archive';
  const alarmed = (s: Scored) => s.assessment.priority === 'critical' || s.assessment.recommended_action === 'escalate';
  const detail: Record<string, Counts> = {};
  for (const s of rows) inc((detail[`${s.label} action`] ??= {}), s.assessment.recommended_action);
  for (const s of rows) inc((detail[`${s.label} category`] ??= {}), s.assessment.category);
  return {
    figures: [
      figure(`spam -> archive recall (${of('spam').length} spam)`, share(of('spam'), archived), '>= 0.95', (v) => v >= 0.95),
      figure(`ordinary mail archived (${of('easy_ham').length} easy_ham)`, share(of('easy_ham'), archived), '<= 0.02', (v) => v <= 0.02),
      figure(`newsletters archived (${of('hard_ham').length} hard_ham)`, share(of('hard_ham'), archived), 'context: may be archived'),
      figure('spam or newsletter critical or escalate (count)', [...of('spam'), ...of('hard_ham')].filter(alarmed).length, '0', (v) => v === 0),
      figure('ordinary mail critical (share)', share(of('easy_ham'), (s) => s.assessment.priority === 'critical'), 'context: few'),
    ],
    detail,
  };
}

function sms(scored: Scored[]): Figure[] {
  const rows = scored.filter((s) => s.corpus === 'sms');
  let tp = 0, fp = 0, fn = 0, tn = 0;
  for (const s of rows) {
    const archived = s.assessment.recommended_action === 'archive';
    if (s.label === 'spam') {
      if (archived) tp++;
      else fn++;
    } else if (archived) fp++;
    else tn++;
  }
  const f1 = (t: number, f: number, n: number) => (2 * t) / Math.max(2 * t + f + n, 1);
  const macro = (f1(tp, fp, fn) + f1(tn, fn, fp)) / 2;
  return [
    figure(`macro-F1 spam->archive / ham->kept (${rows.length} SMS)`, macro, 'context: 0.93 published NB'),
    figure('spam -> archive recall', tp / Math.max(tp + fn, 1), 'context'),
    figure('ham archived', fp / Math.max(fp + tn, 1), '<= 0.02', (v) => v <= 0.02),
  ];
}

function enron(scored: Scored[], inputs: ReturnType<typeof scoreHeldOut>['enronInputs']) {
  const rows = scored.filter((s) => s.corpus === 'enron');
  const n = rows.length;
  const overall = { priority: {} as Counts, action: {} as Counts, category: {} as Counts };
  const byLabel: Record<string, { n: number; priority: Counts; action: Counts }> = {};
  const reasons: Counts = {};
  const languages: Counts = {};
  let personalEscalated = 0;
  for (const s of rows) {
    const a = s.assessment;
    inc(overall.priority, a.priority);
    inc(overall.action, a.recommended_action);
    inc(overall.category, a.category);
    inc(languages, a.language);
    const b = (byLabel[s.label] ??= { n: 0, priority: {}, action: {} });
    b.n++;
    inc(b.priority, a.priority);
    inc(b.action, a.recommended_action);
    if ((s.label === '1.2' || s.label === '1.3') && a.recommended_action === 'escalate') personalEscalated++;
    for (const r of a.reasons) inc(reasons, r.code);
  }
  // Throughput on real bodies: a second, timed pass (the first warmed up the JIT).
  const started = process.hrtime.bigint();
  for (const { signal, now } of inputs) scoreSignal(signal, now);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const chars = inputs.reduce((sum, { signal }) => sum + (signal.body?.length ?? 0), 0);
  const figures = [
    figure(`critical share (${n} messages)`, (overall.priority.critical ?? 0) / n, '<= 0.03', (v) => v <= 0.03),
    figure('archive share', (overall.action.archive ?? 0) / n, '<= 0.05', (v) => v <= 0.05),
    figure('personal mail (1.2, 1.3) escalated (count)', personalEscalated, '0', (v) => v === 0),
    figure('signals per second on these bodies', Math.round(inputs.length / seconds), 'context'),
    figure('average body characters', Math.round(chars / Math.max(inputs.length, 1)), 'context'),
  ];
  return { figures, overall, byLabel, reasons, languages };
}

/** Confidence bucket -> share of decisions the labels agree with (see agrees() for what a label can tell). */
function reliability(scored: Scored[]) {
  return reliabilityTable(scored.map((s) => ({ confidence: s.assessment.confidence, right: agrees(s) })), [0, 0.5, 0.6, 0.7, 0.8, 0.9]);
}

/** Spearman correlation of score with the written severity label, on the hand-written cases (behaviour, not quality). */
function handWritten(): { name: string; value: number; detail: string }[] {
  const now = new Date('2026-03-02T10:00:00Z');
  const out: { name: string; value: number; detail: string }[] = [];
  for (const source of ['internal', 'email'] as const) {
    const scores = ALERT_CASES.map((c) => scoreSignal(alertSignal(c, source), now).score);
    const meanOf = (label: string) => {
      const v = scores.filter((_, i) => ALERT_CASES[i].label === label);
      return (v.reduce((a, b) => a + b, 0) / v.length).toFixed(0);
    };
    out.push({
      name: `alerts as ${source}: Spearman score vs label (${ALERT_CASES.length})`,
      value: spearman(scores, ALERT_CASES.map((c) => ALERT_LEVEL[c.label])),
      detail: `mean score critical ${meanOf('critical')}, warning ${meanOf('warning')}, info ${meanOf('info')}`,
    });
  }
  const tickets = TICKET_CASES.map((c) => scoreSignal(ticketSignal(c), now));
  out.push({
    name: `bugs and tasks: Spearman score vs label (${TICKET_CASES.length})`,
    value: spearman(tickets.map((a) => a.score), TICKET_CASES.map((c) => TICKET_LEVEL[c.label])),
    detail: `in task: ${tickets.filter((a) => a.category === 'task').length} of ${tickets.length}`,
  });
  return out;
}

function main() {
  const { scored, enronInputs } = scoreHeldOut();
  const sa = spamAssassin(scored);
  const smsFigures = sms(scored);
  const en = enron(scored, enronInputs);
  const rel = reliability(scored);
  const calibration = figure('expected calibration error (all held-out decisions)', rel.ece, '<= 0.10', (v) => v <= 0.1);
  if (JSON_OUT) {
    process.stdout.write(
      `${JSON.stringify({ model_version: MODEL_VERSION, spamassassin: sa, sms: smsFigures, enron: en, reliability: rel, calibration })}\n`,
    );
    return;
  }
  console.log(`Decision engine ${MODEL_VERSION}: held-out evaluation, ${EVAL_SPLIT.toUpperCase()} split (${DATA_DIR}; splits in bin/data-splits.ts)\n`);
  printFigures(`SpamAssassin development file, ${EVAL_SPLIT.toUpperCase()} split, as source=email`, sa.figures);
  for (const [k, c] of Object.entries(sa.detail)) console.log(`    ${k.padEnd(18)} ${fmtCounts(c, null, Object.values(c).reduce((x, y) => x + y, 0))}`);
  console.log();
  printFigures(`SMS Spam Collection, ${EVAL_SPLIT.toUpperCase()} split, as source=support_message`, smsFigures);
  console.log();
  printFigures(`Enron/Berkeley business e-mail, ${EVAL_SPLIT === 'test' ? 'DEV+TEST' : 'DEV'} split, as source=email`, en.figures);
  const total = scored.filter((s) => s.corpus === 'enron').length;
  console.log(`    priority: ${fmtCounts(en.overall.priority, PRIORITIES, total)}`);
  console.log(`    action:   ${fmtCounts(en.overall.action, ACTIONS, total)}`);
  console.log(`    category: ${fmtCounts(en.overall.category, null, total)}`);
  console.log(`    language: ${fmtCounts(en.languages, null, total)}`);
  for (const label of Object.keys(en.byLabel).sort()) {
    const b = en.byLabel[label];
    console.log(`    ${label} (${b.n}) priority: ${fmtCounts(b.priority, PRIORITIES, b.n)}; action: ${fmtCounts(b.action, ACTIONS, b.n)}`);
  }
  console.log(`    most frequent reasons: ${Object.entries(en.reasons).sort((x, y) => y[1] - x[1]).slice(0, 12).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log();
  console.log('Reliability of `confidence` (all held-out decisions above; agreement as bin/eval/labeled.ts defines it)');
  console.log('  bucket     decisions  mean confidence  agreement');
  for (const r of rel.rows) console.log(`  ${r.bucket.padEnd(10)} ${String(r.n).padStart(9)}  ${r.mean_confidence.toFixed(3).padStart(15)}  ${r.agreement.toFixed(3).padStart(9)}   (${pct(r.n, scored.length)} of decisions)`);
  printFigures('', [calibration]);
  console.log();
  console.log('Hand-written cases (NOT a quality measure: written by the lexicon\'s author; bin/eval/hand-written-cases.ts)');
  for (const h of handWritten()) console.log(`  ${h.name.padEnd(52)} ${h.value.toFixed(3).padStart(6)}   ${h.detail}`);
  console.log();
  console.log('Not measured here (no labeled data in ../shared/data):');
  console.log('  - alert and ticket priority against their authors\' severity labels (rank correlation): no labeled alerts or');
  console.log('    tickets are available; the hand-written figures above and test/unit/engine-alerts.test.ts check the');
  console.log('    severity ladder on written examples only.');
  console.log('  - language and sentiment accuracy: the sets carry no such labels (language counts above are context).');
}

main();
