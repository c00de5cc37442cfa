// Concluded check (issue 22, bugs-auroc): do plain facts of a bug report's text help the ticket confidence tell right
// from wrong? Inside TIMOB only: its reports are cross-fitted for the severity model exactly as bin/train-confidence.ts
// does (halves by fnv1a(id) % 2), then the confidence is cross-validated by a second id-hash split
// (floor(fnv1a(id) / 2) % 2): fitted on the other corpora's training rows plus one TIMOB half, measured on the other.
// Each fact is read only for a ranked ticket. MODE=logistic (default): facts as extra logistic inputs; MODE=ordinal:
// facts as extra inputs of the ticket ordinal model (so they move the chance that a label fits the band);
// MODE=band: each fact once per band in the logistic. ONLY='base;all;stack,serious' picks variants.
//   npx tsx bin/confidence-text-check.ts      (about 20 s per fit, two fits per variant)
// ORD_EPOCHS (default 3000, as the trainer) checks that the ordinal with facts has converged.
import { lastConfidenceInput, scoreSignal, type EngineModels } from '../lambdas/domain/engine';
import {
  CONFIDENCE_FEATURES,
  confidenceFeatures,
  rankedKind,
  rankedPoints,
  useConfidenceModel,
  type ConfidenceInput,
} from '../lambdas/domain/engine/confidence';
import { fnv1a, loadAlerts, loadBugs, loadEnron, loadSms, loadSpamAssassin, type Split } from './data-splits';
import { shippedSeverityModels } from '../lambdas/domain/engine/severity-model';
import { bugExample, fitBugModel, severityModelOf } from './train-severity-model';
import { bugCase, enronCase, isRight, smsCase, spamAssassinCase, webFormCase, type Case } from './eval/labeled';
import { crossFittedAlertRows, fitOrdinal, type Row } from './train-confidence';
import { auroc, reliabilityTable, TEN_BINS } from './eval/report';

useConfidenceModel({
  weights: CONFIDENCE_FEATURES.map(() => 0),
  ordinal: {
    internal: { rules: 0, model: 0, thresholds: [0, 0] },
    task: { rules: 0, model: 0, thresholds: [0, 0, 0, 0] },
  },
});
type XRow = Row & { text: string; fold: number };
function rowsOf(cases: Case[], models: EngineModels = {}, fold = -1, ids: string[] = []): XRow[] {
  return cases.map((c, i) => {
    const a = scoreSignal(c.signal, c.now, models);
    return {
      input: lastConfidenceInput(),
      y: isRight(c, a) ? 1 : 0,
      w: 1 / cases.length,
      level: c.level,
      text: `${c.signal.subject ?? ''}\n${c.signal.body ?? ''}`,
      fold: ids.length ? Math.floor(fnv1a(ids[i]) / 2) % 2 : fold,
    };
  });
}
const ts = <T extends { split: Split }>(r: T[]) => r.filter((x) => x.split !== 'test');
const sa = ts(loadSpamAssassin());
const other: XRow[] = [
  ...rowsOf(sa.map(spamAssassinCase)),
  ...rowsOf(sa.filter((r) => r.label === 'spam').map(webFormCase)),
  ...rowsOf(ts(loadSms()).map(smsCase)),
  ...rowsOf(ts(loadEnron()).map(enronCase)),
  ...crossFittedAlertRows(loadAlerts()).map((r) => ({ ...r, text: '', fold: -1 })),
];
const bugs = ts(loadBugs());
const timob: XRow[] = [];
for (const k of [0, 1]) {
  const inF = (r: { id: string }) => fnv1a(r.id) % 2 === k;
  const models = {
    severity: {
      alert: shippedSeverityModels().alert,
      bug: severityModelOf(fitBugModel(bugs.filter((r) => !inF(r)).map(bugExample), 'fold')),
    },
  };
  const part = bugs.filter(inF);
  timob.push(
    ...rowsOf(
      part.map(bugCase),
      models,
      -1,
      part.map((r) => r.id),
    ).map((r) => ({ ...r, w: r.w / 2 })),
  );
}
const FACTS: Record<string, (t: string, c: ConfidenceInput) => number> = {
  log_words_t: (_t, c) => Math.log1p(c.words) / 8,
  stack: (t) =>
    /(^|\n)\s*at [\w$.<>]+\s*\(|Traceback \(most recent|\b\w+(Exception|Error)\b|\bERROR\b|\[ERROR\]|stack ?trace|\bcrash(ed)? log/.test(
      t,
    )
      ? 1
      : 0,
  steps: (t) => (/steps to repro|to reproduce|repro(duction)? steps|steps:|^\s*1[.)] /im.test(t) ? 1 : 0),
  expected: (t) => (/expected (result|behaviou?r|:)|actual (result|behaviou?r|:)/i.test(t) ? 1 : 0),
  version: (t) => (/regression|used to work|worked (fine |well )?(in|with|before)|\b\d+\.\d+\.\d+/i.test(t) ? 1 : 0),
  serious: (t) => (/crash|hang|freez|data loss|lost data|security|vulnerab|corrupt/i.test(t) ? 1 : 0),
  question: (t) =>
    /\bshould\b|would be nice|add support|feature request|\benhancement|it would be|\bplease add|\bsupport for\b|\bimprove/i.test(
      t,
    )
      ? 1
      : 0,
  reasons_t: (_t, c) => Math.min(c.reasons.length, 6) / 6,
  empty_body: (t) => (t.split('\n').slice(1).join('\n').trim().length < 20 ? 1 : 0),
};
const variants: Record<string, string[]> = process.env.ONLY
  ? Object.fromEntries(
      process.env.ONLY.split(';').map((v) => [v, v === 'base' ? [] : v === 'all' ? Object.keys(FACTS) : v.split(',')]),
    )
  : {
      base: [],
      len: ['log_words_t'],
      stack: ['stack'],
      steps: ['steps'],
      expected: ['expected'],
      version: ['version'],
      serious: ['serious'],
      question: ['question'],
      reasons: ['reasons_t'],
      empty: ['empty_body'],
      all: Object.keys(FACTS),
      ...(process.argv[2] ? { custom: process.argv[2].split(',') } : {}),
    };
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const MONO = new Set(['margin', 'spam_certainty', 'strongest', 'reasons', 'band_distance']);
const FIT: number[][] = [
  [5, 4],
  [5, 4],
  [3, 2, 1],
  [2, 1],
];
const bandOf = (s: number) => (s >= 80 ? 0 : s >= 60 ? 1 : s >= 35 ? 2 : 3);
function ordX(rows: XRow[], facts: string[]) {
  const data = rows
    .filter((r) => r.level !== undefined && rankedKind(r.input) === 'task')
    .map((r) => {
      const p = rankedPoints(r.input.reasons);
      return { x: [p.rules, p.model, ...facts.map((f) => FACTS[f](r.text, r.input))], level: r.level!, w: r.w };
    });
  const m = 2 + facts.length;
  const K = 5;
  const p = [...new Array<number>(m).fill(0), -1, -1 / 3, 1 / 3, 1];
  const g2 = p.map(() => 1e-8);
  const total = data.reduce((s, r) => s + r.w, 0);
  for (let e = 0; e < Number(process.env.ORD_EPOCHS ?? 3000); e++) {
    const g = p.map(() => 0);
    for (const r of data) {
      let eta = 0;
      for (let i = 0; i < m; i++) eta += p[i] * r.x[i];
      const hi = r.level < K ? sigmoid(p[m + r.level - 1] - eta) : 1;
      const lo = r.level > 1 ? sigmoid(p[m + r.level - 2] - eta) : 0;
      const prob = Math.max(hi - lo, 1e-9);
      const fHi = r.level < K ? hi * (1 - hi) : 0;
      const fLo = r.level > 1 ? lo * (1 - lo) : 0;
      const d = r.w / total / prob;
      if (r.level < K) g[m + r.level - 1] -= d * fHi;
      if (r.level > 1) g[m + r.level - 2] += d * fLo;
      const dE = d * (fHi - fLo);
      for (let i = 0; i < m; i++) g[i] += dE * r.x[i];
    }
    for (let i = 0; i < m; i++) g[i] += 1e-3 * p[i];
    for (let i = 0; i < p.length; i++) {
      g2[i] += g[i] * g[i];
      p[i] -= (0.1 * g[i]) / Math.sqrt(g2[i]);
    }
    for (let i = m + 1; i < p.length; i++) p[i] = Math.max(p[i], p[i - 1] + 1e-3);
  }
  return (r: XRow) => {
    const pt = rankedPoints(r.input.reasons);
    const x = [pt.rules, pt.model, ...facts.map((f) => FACTS[f](r.text, r.input))];
    let eta = 0;
    for (let i = 0; i < m; i++) eta += p[i] * x[i];
    const ch: number[] = [];
    let below = 0;
    for (const t of p.slice(m)) {
      const c = sigmoid(t - eta);
      ch.push(Math.max(c - below, 0));
      below = Math.max(c, below);
    }
    ch.push(1 - below);
    let q = 0;
    for (const l of FIT[bandOf(r.input.score)]) q += ch[l - 1];
    q = Math.min(Math.max(q, 0.01), 0.99);
    return { logit: Math.log(q / (1 - q)), w: p.slice(2, m) };
  };
}
const TO = CONFIDENCE_FEATURES.indexOf('task_ordinal');
const MODE = process.env.MODE ?? 'logistic';
function fit(rows: XRow[], facts: string[]) {
  const ordinal = { internal: fitOrdinal(rows, 'internal'), task: fitOrdinal(rows, 'task') };
  const ordFacts = MODE === 'ordinal' ? facts : [];
  const ox = ordX(rows, ordFacts);
  const lf = MODE === 'ordinal' ? [] : facts;
  const feat = (r: XRow) => {
    const b = confidenceFeatures(r.input, ordinal);
    if (rankedKind(r.input) === 'task') b[TO] = ox(r).logit;
    if (MODE === 'band')
      return [
        ...b,
        ...lf.flatMap((f) =>
          [0, 1, 2, 3].map((i) =>
            rankedKind(r.input) === 'task' && bandOf(r.input.score) === i ? FACTS[f](r.text, r.input) : 0,
          ),
        ),
      ];
    return [...b, ...lf.map((f) => (rankedKind(r.input) === 'task' ? FACTS[f](r.text, r.input) : 0))];
  };
  const xs = rows.map(feat);
  const n = xs[0].length;
  const w = new Array<number>(n).fill(0);
  const g2 = new Array<number>(n).fill(1e-8);
  const total = rows.reduce((s, r) => s + r.w, 0);
  for (let e = 0; e < 3000; e++) {
    const g = new Array<number>(n).fill(0);
    for (let j = 0; j < rows.length; j++) {
      const x = xs[j];
      let z = 0;
      for (let i = 0; i < n; i++) z += w[i] * x[i];
      const d = ((sigmoid(z) - rows[j].y) * rows[j].w) / total;
      for (let i = 0; i < n; i++) g[i] += d * x[i];
    }
    for (let i = 0; i < n; i++) {
      const gi = g[i] + (i === 0 ? 0 : 1e-3 * w[i]);
      g2[i] += gi * gi;
      w[i] -= (0.1 * gi) / Math.sqrt(g2[i]);
      if (i < CONFIDENCE_FEATURES.length && MONO.has(CONFIDENCE_FEATURES[i]) && w[i] < 0) w[i] = 0;
    }
  }
  return {
    predict: (r: XRow) => {
      const x = feat(r);
      let z = 0;
      for (let i = 0; i < n; i++) z += w[i] * x[i];
      return Math.round(Math.min(Math.max(sigmoid(z), 0.05), 0.99) * 100) / 100;
    },
    w: [...w.slice(CONFIDENCE_FEATURES.length), ...(MODE === 'ordinal' && timob.length ? ox(timob[0]).w : [])].map(
      (v) => v.toFixed(2),
    ),
  };
}
for (const [name, facts] of Object.entries(variants)) {
  const judged: { confidence: number; right: boolean }[] = [];
  const ws: string[] = [];
  for (const k of [0, 1]) {
    const trainT = timob.filter((r) => r.fold !== k).map((r) => ({ ...r, w: r.w * 2 }));
    const m = fit([...other, ...trainT], facts);
    ws.push(m.w.join(' '));
    for (const r of timob.filter((r) => r.fold === k)) judged.push({ confidence: m.predict(r), right: r.y === 1 });
  }
  console.log(
    `${name.padEnd(9)} AUROC ${auroc(judged).toFixed(3)} ECE ${reliabilityTable(judged, TEN_BINS).ece} w[${ws.join(' | ')}]`,
  );
}
