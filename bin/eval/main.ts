// Measures the decision engine on held-out labeled real data and prints every goal of issue 22 beside its figure
// (not a test: nothing here fails). The splits are fixed in bin/data-splits.ts and printed first. No message text is
// ever printed.
//   npm run eval                       human-readable report
//   npm run --silent eval -- --json    exactly one JSON object on stdout
//   npm run eval -- --markdown         also writes the goals table into docs/decision-engine.md
//   npm run eval -- --only=warm        only the warm section, in process (bin/eval/warm-sources.ts): a quick run
import '../lexicon-index-check';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MODEL_VERSION, scoreSignal } from '../../lambdas/domain/engine';
import { shippedSeverityModels } from '../../lambdas/domain/engine/severity-model';
import { ALERT_FOLDS, describeSplits, loadAlerts } from '../data-splits';
import { inSpamFitting } from '../spam-examples';
import { pooledAlertModelWithout } from '../severity-alert-pooled';
import { alertBandModelWithout } from '../train-severity-model';
import { ALERT_CASES, TICKET_CASES, TICKET_LEVEL, alertSignal, ticketSignal } from './hand-written-cases';
import { ALERT_LEVEL, EVAL_SPLIT, heldOutCases, scoreCases, type Case, type Corpus, type Scored } from './labeled';
import { type Copies, copiesInFitting } from './copies';
import { crossFittedAlertRows, fitConfidence, unseenTrackerRate } from '../train-confidence';
import { currentConfidenceModel, useConfidenceModel } from '../../lambdas/domain/engine/confidence';
import { decisionsByFold } from '../severity-folds';
import { confidenceBaseRows, withRankedTask } from './fold-confidence';
import { severitySources } from './severity-sources';
import { warmSources } from './warm-sources';
import { warmThroughApi } from './warm-api';
import { archiveThroughApi } from './archive-api';
import { withLocalApi } from './api-post';
import { languageFigures } from './language';
import { spamArchiveFigures } from './spam-archive';
import { invariantTable } from './invariant-table';
import { TEN_BINS, auroc, figure, printFigures, reliabilityTable, round, spearman, type Figure } from './report';

const JSON_OUT = process.argv.includes('--json');
const MARKDOWN = process.argv.includes('--markdown');
// The table's rows say "held out": the DEV split is for choosing thresholds, never for the documented figures.
if (MARKDOWN && EVAL_SPLIT !== 'test') throw new Error('--markdown writes held-out figures: run it without --dev');
const ONLY_WARM = process.argv.includes('--only=warm');

const share = (list: Scored[], test: (s: Scored) => boolean) => list.filter(test).length / Math.max(list.length, 1);
const count = (list: Scored[], test: (s: Scored) => boolean) => list.filter(test).length;
const archived = (s: Scored) => s.assessment.recommended_action === 'archive';
const escalated = (s: Scored) => s.assessment.recommended_action === 'escalate' || s.assessment.priority === 'critical';

/** A plain outage report, obvious spam and vague one-liners, written here (no corpus text). */
const OUTAGE = {
  workspace_id: 'eval',
  source: 'email',
  received_at: '2026-01-15T11:59:00Z',
  subject: 'Production outage',
  body: 'Our checkout is down for all customers since 09:10. Every payment fails with error 500.',
} as const;
const SPAM = {
  workspace_id: 'eval',
  source: 'email',
  received_at: '2026-01-15T11:59:00Z',
  subject: 'You have WON a FREE prize!!!',
  body: 'Congratulations! You have been selected to receive a $1000 gift card. Click here to claim your prize now. Limited time offer, act now! Unsubscribe here.',
  sender: 'winner@promo-deals.example',
} as const;
const VAGUE = ['hi', 'quick question', 'any update?', 'please call me', 'see attached', 'ok thanks'];

interface CorpusConfidence {
  n: number;
  wrong: number;
  ece: number;
  auroc: number | null;
  /** The same area where fewer than 30 are wrong: context only (the issue's e-mail spam row is such a corpus here). */
  auroc_few_wrong: number | null;
  rows: ReturnType<typeof reliabilityTable>['rows'];
}

function goals(scored: Scored[], copies: Copies): { figures: Figure[]; perCorpus: Record<string, CorpusConfidence> } {
  const of = (corpus: Corpus, label?: string) =>
    scored.filter((s) => s.corpus === corpus && (label === undefined || s.label === label));
  const bugs = of('bugs');
  const topBugs = bugs.filter((s) => (s.level ?? 0) >= 4);
  const alerts = of('alerts');
  const rho = (list: Scored[]) =>
    spearman(
      list.map((s) => s.assessment.score),
      list.map((s) => s.level!),
    );
  const kube = alerts.filter((s) => s.group === 'prometheus-operator/kube-prometheus');
  const vm = alerts.filter((s) => s.group === 'VictoriaMetrics/VictoriaMetrics');
  const criticalAlerts = of('alerts', 'critical');
  const unseenCriticalAlerts = criticalAlerts.filter((s) => !inSpamFitting(s.id!));
  const ham = [...of('spamassassin', 'easy_ham'), ...of('enron')];
  const uniqueSpam = of('spamassassin', 'spam').filter((s) => !copies.exact(s));
  const uniqueWebForm = of('web-form spam').filter((s) => !copies.exact(s));
  const unseenSpam = of('spamassassin', 'spam').filter((s) => !copies.near(s));
  const unseenWebForm = of('web-form spam').filter((s) => !copies.near(s));
  const junk = [
    ...of('spamassassin', 'spam'),
    ...of('spamassassin', 'hard_ham'),
    ...of('web-form spam'),
    ...of('sms', 'spam'),
  ];
  const noneArchived = (name: string, list: Scored[]) =>
    figure(`${name} archived (of ${list.length})`, count(list, archived), '0');
  const figures: Figure[] = [
    noneArchived('BANKING77 as support_message', of('banking77')),
    // Issue 31: business text archived, 0 (issue 22 allowed 0.5%).
    figure(`bugs as task archived, test projects (${bugs.length})`, share(bugs, archived), '0'),
    noneArchived('bugs of the top two priorities', topBugs),
    // The spam model read an eighth of the alert rules for TRAIN and an eighth for DEV (bin/spam-examples.ts): the
    // first row holds them, the second measures only the rules it never saw.
    noneArchived(
      `critical alerts, ${criticalAlerts.filter((s) => inSpamFitting(s.id!)).length} in the spam model's TRAIN/DEV,`,
      criticalAlerts,
    ),
    noneArchived('critical alerts the spam model never saw', unseenCriticalAlerts),
    figure(`e-mail ham archived (easy_ham test + Enron, ${ham.length})`, share(ham, archived), '<= 0.01'),
    figure(
      `SpamAssassin spam -> archive (test, ${of('spamassassin', 'spam').length}; ${of('spamassassin', 'spam').filter(copies.exact).length} copied in TRAIN/DEV)`,
      share(of('spamassassin', 'spam'), archived),
      'context',
    ),
    figure(
      `same spam as support_message -> archive (${of('web-form spam').length}; the same copies)`,
      share(of('web-form spam'), archived),
      'context',
    ),
    figure(
      `SpamAssassin spam with no copy in TRAIN/DEV -> archive (${uniqueSpam.length})`,
      share(uniqueSpam, archived),
      'context',
    ),
    figure(
      `  the same as support_message -> archive (${uniqueWebForm.length})`,
      share(uniqueWebForm, archived),
      'context',
    ),
    figure(
      `SpamAssassin spam with no copy up to case, punctuation, digits -> archive (${unseenSpam.length})`,
      share(unseenSpam, archived),
      '>= 0.95',
    ),
    figure(
      `  the same as support_message -> archive (${unseenWebForm.length})`,
      share(unseenWebForm, archived),
      '>= 0.90',
    ),
    figure(`spam and newsletters escalated (of ${junk.length})`, count(junk, escalated), '0'),
    figure(
      `alerts text only: rho, lower of kube->VM (${vm.length}) / VM->kube (${kube.length})`,
      Math.min(rho(vm), rho(kube)),
      '>= 0.4',
    ),
    // Pooled over projects: issue 31 judges the worst held-out source ("bugs cold rho, worst of ..." below).
    figure(`bugs: rho with tracker priority, test projects pooled (${bugs.length})`, rho(bugs), 'context'),
  ];
  const perCorpus: Record<string, CorpusConfidence> = {};
  let worstEce = 0;
  // None with enough wrong decisions to judge: the row says so (NaN, a MISS), never a PASS by default.
  let worstAuroc = NaN;
  const corpora: Corpus[] = ['spamassassin', 'web-form spam', 'sms', 'enron', 'banking77', 'alerts', 'bugs'];
  for (const corpus of corpora) {
    const list = of(corpus);
    const judged = list.map((s) => ({ confidence: s.assessment.confidence, right: s.right }));
    const rel = reliabilityTable(judged, TEN_BINS);
    const wrong = judged.filter((j) => !j.right).length;
    const area = wrong >= 30 && wrong < judged.length ? auroc(judged) : NaN;
    const fewWrong = wrong > 0 && wrong < 30 && wrong < judged.length ? round(auroc(judged), 3) : null;
    worstEce = Math.max(worstEce, rel.ece);
    if (!Number.isNaN(area)) worstAuroc = Number.isNaN(worstAuroc) ? area : Math.min(worstAuroc, area);
    perCorpus[corpus] = {
      n: list.length,
      wrong,
      ece: rel.ece,
      auroc: Number.isNaN(area) ? null : round(area, 3),
      auroc_few_wrong: fewWrong,
      rows: rel.rows,
    };
  }
  figures.push(
    figure('confidence AUROC right vs wrong, worst corpus (>= 30 wrong)', worstAuroc, '>= 0.75'),
    // A corpus pools its sources (alerts, bugs): issue 31 judges ECE per held-out source (the rows below).
    figure('confidence ECE (10 bins), worst corpus, sources pooled', worstEce, 'context'),
  );
  const now = new Date('2026-01-15T12:00:00Z');
  const outage = scoreSignal({ ...OUTAGE }, now).confidence;
  const spam = scoreSignal({ ...SPAM }, now).confidence;
  const vague = Math.max(
    ...VAGUE.map(
      (body) =>
        scoreSignal({ workspace_id: 'eval', source: 'email', received_at: OUTAGE.received_at, body }, now).confidence,
    ),
  );
  figures.push(
    figure(
      `most confident vague one-liner minus min(outage ${outage}, spam ${spam})`,
      vague - Math.min(outage, spam),
      '< 0',
    ),
  );
  return { figures, perCorpus };
}

function handWritten(): { name: string; value: number }[] {
  const now = new Date('2026-03-02T10:00:00Z');
  const alerts = ALERT_CASES.map((c) => scoreSignal(alertSignal(c, 'internal'), now).score);
  const tickets = TICKET_CASES.map((c) => scoreSignal(ticketSignal(c), now).score);
  return [
    {
      name: `hand-written alerts (${ALERT_CASES.length}): Spearman`,
      value: spearman(
        alerts,
        ALERT_CASES.map((c) => ALERT_LEVEL[c.label]),
      ),
    },
    {
      name: `hand-written bugs and tasks (${TICKET_CASES.length}): Spearman`,
      value: spearman(
        tickets,
        TICKET_CASES.map((c) => TICKET_LEVEL[c.label]),
      ),
    },
  ];
}

const MD_BEGIN = '<!-- eval:goals:begin (written by `npm run eval -- --markdown`) -->';
const MD_END = '<!-- eval:goals:end -->';

/** A corpus with fewer than 30 wrong: its area as context, not judged (too few wrong to rank by). */
const fewWrong = (v: CorpusConfidence) =>
  v.auroc_few_wrong === null ? '-' : `- (${v.auroc_few_wrong} on ${v.wrong} wrong: context)`;

function writeMarkdown(figures: Figure[], perCorpus: Record<string, CorpusConfidence>): void {
  const file = path.resolve(__dirname, '../../docs/decision-engine.md');
  const lines = [MD_BEGIN, '', '| Figure (held out) | Value | Goal | |', '|---|---|---|---|'];
  for (const f of figures)
    lines.push(`| ${f.name} | ${f.value} | ${f.goal} | ${f.pass === undefined ? '' : f.pass ? 'PASS' : 'MISS'} |`);
  lines.push('', '| Corpus | Decisions | Wrong | ECE (10 bins) | AUROC (>= 30 wrong) |', '|---|---|---|---|---|');
  for (const [k, v] of Object.entries(perCorpus))
    lines.push(`| ${k} | ${v.n} | ${v.wrong} | ${v.ece} | ${v.auroc ?? fewWrong(v)} |`);
  lines.push('', MD_END);
  const doc = readFileSync(file, 'utf8');
  const a = doc.indexOf(MD_BEGIN);
  const b = doc.indexOf(MD_END);
  if (a < 0 || b < 0) throw new Error(`docs/decision-engine.md: markers ${MD_BEGIN} ... ${MD_END} not found`);
  writeFileSync(file, doc.slice(0, a) + lines.join('\n') + doc.slice(b + MD_END.length));
}

/**
 * Alerts are scored fold by fold: the severity model and the confidence model each trained without the source
 * tested (the confidence model on the other corpora's training side and the other source's rules; `ranked_task`,
 * which alerts never read, as shipped).
 */
function scoreAlertsByFold(cases: Case[]): Scored[] {
  if (cases.length === 0) return [];
  const bug = shippedSeverityModels().bug;
  const base = confidenceBaseRows();
  const alerts = loadAlerts();
  const rankedTask = currentConfidenceModel().ranked_task;
  const out: Scored[] = [];
  for (const fold of ALERT_FOLDS) {
    const train = alerts.filter((r) => r.source !== fold.test);
    const alert = pooledAlertModelWithout([fold.test]);
    const alertBand = alertBandModelWithout([fold.test]);
    useConfidenceModel(fitConfidence([...base, ...crossFittedAlertRows(train)], rankedTask));
    out.push(
      ...scoreCases(
        cases.filter((c) => c.group === fold.test),
        (c) => scoreSignal(c.signal, c.now, { severity: { alert, alertBand, bug } }),
      ),
    );
  }
  useConfidenceModel(null);
  return out;
}

/**
 * Context for the whole-corpus AUROC row: each project's `ranked_task` above is the other trackers' mean, which falls as
 * the project's own share right rises, so a constant per project orders the pooled corpus wrong by construction. One
 * rate for all the test projects, fitted without any of them, shows what a constant gives (ties: 0.50) and its ECE.
 */
function bugsWithOneRate(cases: Case[]): Figure {
  const projects = new Set(cases.map((c) => c.group!));
  const rate = unseenTrackerRate(decisionsByFold().filter((d) => !projects.has(d.group)));
  const judged = withRankedTask(rate, () => scoreCases(cases)).map((s) => ({
    confidence: s.assessment.confidence,
    right: s.right,
  }));
  return figure(
    `  bugs with one ranked_task (${rate}, without the ${projects.size} test projects): AUROC (ECE ${reliabilityTable(judged, TEN_BINS).ece})`,
    auroc(judged),
    'context',
  );
}

/** Bug reports project by project, a ranked ticket's confidence from `ranked_task` fitted without the project. */
function scoreBugsByProject(cases: Case[]): Scored[] {
  const decisions = decisionsByFold();
  return [...new Set(cases.map((c) => c.group!))].flatMap((project) =>
    withRankedTask(unseenTrackerRate(decisions, project), () => scoreCases(cases.filter((c) => c.group === project))),
  );
}

async function main() {
  if (ONLY_WARM) {
    const warm = warmSources();
    printFigures('Goals of issue 31, warm, on held-out halves', warm.figures);
    for (const line of warm.lines) console.log(line);
    return;
  }
  const cases = heldOutCases();
  const scored = [
    ...scoreCases(cases.filter((c) => c.corpus !== 'alerts' && c.corpus !== 'bugs')),
    ...scoreAlertsByFold(cases.filter((c) => c.corpus === 'alerts')),
    ...scoreBugsByProject(cases.filter((c) => c.corpus === 'bugs')),
  ];
  // Read once for the goal rows here and the archive figures below.
  const copies = copiesInFitting();
  const { figures, perCorpus } = goals(scored, copies);
  const aurocRow = figures.findIndex((f) => f.name.startsWith('confidence AUROC right vs wrong'));
  figures.splice(aurocRow + 1, 0, bugsWithOneRate(cases.filter((c) => c.corpus === 'bugs')));
  const language = languageFigures();
  const spam = spamArchiveFigures(scored, copies);
  if (EVAL_SPLIT === 'dev') {
    // DEV has only the mail and SMS corpora: the rows of the others, and the sections after, read held-out data.
    const devRows = [...figures, ...spam.figures].filter((f) => !/BANKING77|bugs|alerts|Thai|confidence/.test(f.name));
    printFigures('Spam and ordinary messages on DEV (SpamAssassin, SMS, Enron): for thresholds, not goals', devRows);
    // The cuts; the reliability lines after it include the Thai SMS, which has no DEV side.
    console.log(spam.lines[0]);
    return;
  }
  const severity = severitySources();
  const warm = warmSources();
  const [archiveApi, api] = await withLocalApi(async (local) => [
    await archiveThroughApi(local, scored),
    await warmThroughApi(local),
  ]);
  const all = [
    ...figures,
    ...spam.figures,
    ...archiveApi.figures,
    ...language.figures,
    ...severity.figures,
    ...warm.figures,
    ...api.figures,
  ];
  if (JSON_OUT) {
    process.stdout.write(
      `${JSON.stringify({ model_version: MODEL_VERSION, figures: all, confidence: perCorpus, language: language.detail, severity: severity.sources, warm: warm.sources })}\n`,
    );
    return;
  }
  console.log(`Decision engine ${MODEL_VERSION}: held-out evaluation (splits in bin/data-splits.ts)`);
  for (const line of describeSplits()) console.log(`  ${line}`);
  console.log();
  printFigures('Goals of issues 22 and 31, on held-out data', all);
  console.log();
  console.log('Confidence per corpus (right as bin/eval/labeled.ts defines it; reliability over 10 bins)');
  for (const [corpus, v] of Object.entries(perCorpus)) {
    console.log(`  ${corpus}: ${v.n} decisions, ${v.wrong} wrong, ECE ${v.ece}, AUROC ${v.auroc ?? fewWrong(v)}`);
    const rows = v.rows.filter((r) => r.n > 0);
    console.log(
      `    ${rows.map((r) => `${r.bucket}: ${r.n} @ ${r.mean_confidence.toFixed(2)} -> ${r.agreement.toFixed(2)}`).join('; ')}`,
    );
  }
  console.log();
  for (const line of spam.lines) console.log(line);
  for (const line of archiveApi.lines) console.log(line);
  if (process.argv.includes('--invariants')) {
    console.log(
      '\nWhat each archive guard changes on the development sources (spam / ordinary messages; bin/eval/invariant-table.ts)',
    );
    for (const line of invariantTable()) console.log(line);
  }
  console.log();
  for (const line of language.lines) console.log(line);
  console.log();
  for (const line of severity.lines) console.log(line);
  console.log();
  for (const line of warm.lines) console.log(line);
  for (const line of api.lines) console.log(line);
  console.log();
  console.log(
    "Hand-written cases (NOT a quality measure: written by the lexicon's author; bin/eval/hand-written-cases.ts)",
  );
  for (const h of handWritten()) console.log(`  ${h.name.padEnd(52)} ${h.value.toFixed(3).padStart(6)}`);
  if (MARKDOWN) {
    writeMarkdown(all, perCorpus);
    console.log('\nwrote the goals table into docs/decision-engine.md');
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
