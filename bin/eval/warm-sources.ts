// `npm run eval`'s warm section (issue 31): what a workspace gets from importing its own labeled history. Per
// development alert source and tracker, a seeded, label-stratified half of its labeled rows is taught as
// `{priority}` (its levels mapped in order onto the contract's priorities: PRIORITY_OF, written in
// docs/decision-engine-severity.md), the other half is decided with that history (warm) and without it (cold: the
// global engine, with severity and confidence models fitted without the source, bin/severity-folds.ts and
// bin/eval/fold-confidence.ts). The workspace's model
// is built exactly as the import route builds it (sketchSignal, labelDeltas, applyDeltas) and the decision exactly as
// analyze makes it (scoreSignal, then applyWorkspace); bin/eval/warm-api-check.ts checks that the API answers the same.
// Right: warm, the exact taught priority; cold confidence, the band fits the label (bin/eval/labeled.ts).
import type { Priority } from '../../lambdas/domain/decision';
import { compilePolicy, EMPTY_POLICY } from '../../lambdas/domain/policy';
import { labelDeltas } from '../../lambdas/domain/learning/label-delta';
import { applyDeltas, emptyModel, type WorkspaceModel } from '../../lambdas/domain/learning/model';
import { sketchKeyOf, sketchSignal, type SketchKey } from '../../lambdas/domain/learning/sketch';
import { applyWorkspace } from '../../lambdas/domain/learning/workspace-layer';
import { learnedPriority } from '../../lambdas/domain/learning/learned-priority';
import { fnv1a } from '../data-splits';
import type { SeverityKind } from '../severity-data';
import { decisionsByFold, type RankedDecision } from '../severity-folds';
import { foldCalibrated } from './fold-confidence';
import { TEN_BINS, auroc, eceByChance, figure, reliabilityTable, round, spearman, type Figure } from './report';
import { eceBesideChance } from './severity-sources';
import { type Text, UNLIKE_CHECK, otherKind } from './unlike-samples';

/** A vocabulary of n levels (least severe first) onto the contract's priorities, in order. */
const PRIORITY_OF: Record<number, readonly Priority[]> = {
  2: ['medium', 'critical'],
  3: ['low', 'medium', 'critical'],
  4: ['low', 'medium', 'high', 'critical'],
  5: ['low', 'low', 'medium', 'high', 'critical'],
};
export const taughtPriority = (d: Pick<RankedDecision, 'level' | 'levels'>) => PRIORITY_OF[d.levels][d.level - 1];

/**
 * The seeded, label-stratified halves: inside each label, rows by hash of their id, every other one taught. With
 * `textOf`, a tested row whose text a taught row has word for word is left out (trackers hold duplicate tickets: its
 * answer would recall the taught copy).
 */
export function warmHalves<T extends { id: string; label: string }>(
  rows: readonly T[],
  textOf?: (row: T) => string,
): { taught: T[]; tested: T[] } {
  const byLabel = new Map<string, T[]>();
  for (const r of rows) byLabel.set(r.label, [...(byLabel.get(r.label) ?? []), r]);
  const taught: T[] = [];
  const tested: T[] = [];
  for (const label of [...byLabel.keys()].sort()) {
    const list = byLabel
      .get(label)!
      .sort((a, b) => fnv1a(`warm:${a.id}`) - fnv1a(`warm:${b.id}`) || (a.id < b.id ? -1 : 1));
    list.forEach((r, i) => (i % 2 === 0 ? taught : tested).push(r));
  }
  if (!textOf) return { taught, tested };
  const taughtTexts = new Set(taught.map(textOf));
  return { taught, tested: tested.filter((r) => !taughtTexts.has(textOf(r))) };
}

/** A decision's text as the warm halves compare it. */
export const decisionText = (d: { signal: { subject?: string; body?: string } }): string =>
  `${d.signal.subject ?? ''}\n${d.signal.body ?? ''}`;

/** A fixed sketch key per source, in the current format, as a model item stores it (bin/eval/warm-api.ts seeds it). */
export const evalSketchKeyText = (group: string): string =>
  `2.${fnv1a(`a:${group}`).toString(16).padStart(8, '0')}${fnv1a(`b:${group}`).toString(16).padStart(8, '0')}`;

/** The same key as the sketcher reads it (the eval's in-process workspaces). */
export const evalSketchKey = (group: string): SketchKey => sketchKeyOf(evalSketchKeyText(group));

export function taughtModel(key: SketchKey, taught: readonly RankedDecision[]): WorkspaceModel {
  const model = emptyModel();
  applyDeltas(
    model,
    labelDeltas(taught.map((d) => ({ sketch: sketchSignal(key, d.signal), labels: { priority: taughtPriority(d) } }))),
  );
  return model;
}

interface WarmFigures {
  kind: SeverityKind;
  group: string;
  taught: number;
  tested: number;
  cold_rho: number;
  warm_rho: number;
  cold_exact: number;
  warm_exact: number;
  constant: number;
  /** Share of the tested half the learned priority spoke on (the signal was like what was taught). */
  learned: number;
  warm_wrong: number;
  warm_auroc: number | null;
  warm_ece: number;
  /** The ECE a calibrated confidence would show on these decisions by chance (bin/eval/report.ts, eceByChance). */
  ece_by_chance: { mean: number; p95: number };
  /** Warm decisions as (confidence, right), for pooling, and their priorities and scores (bin/eval/warm-api.ts compares them). */
  judged: { confidence: number; right: boolean }[];
  priorities: Priority[];
  scores: number[];
  /** Tested signals the global engine made critical, those the workspace lowered, and of those, the ones taught critical. */
  critical: { global: number; lowered: number; taughtCritical: number };
  /** Per held-out sample of unlike text (bin/eval/unlike-samples.ts), the share the learned priority speaks on. */
  unlike: Record<string, number>;
}

const POLICY = compilePolicy(EMPTY_POLICY);

export function warmSource(
  kind: SeverityKind,
  group: string,
  list: readonly RankedDecision[],
  unlikeTexts: Record<string, readonly Text[]> = {},
): WarmFigures {
  const { taught, tested } = warmHalves(list, decisionText);
  const key = evalSketchKey(group);
  const model = taughtModel(key, taught);
  const counts = new Map<Priority, number>();
  for (const d of taught) counts.set(taughtPriority(d), (counts.get(taughtPriority(d)) ?? 0) + 1);
  const common = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
  /** Whether the learned priority speaks on a text (it is like the history). */
  const speaksOn = (t: { subject?: string; body?: string }) =>
    learnedPriority(model, sketchSignal(key, t), t) !== undefined;
  const warm = tested.map((d) => applyWorkspace(d.assessment, d.signal, POLICY, model, sketchSignal(key, d.signal)));
  const levels = tested.map((d) => d.level);
  const exact = (ps: readonly Priority[]) =>
    ps.filter((p, i) => p === taughtPriority(tested[i])).length / tested.length;
  const judged = warm.map((w, i) => ({ confidence: w.confidence, right: w.priority === taughtPriority(tested[i]) }));
  const wrong = judged.filter((j) => !j.right).length;
  const lowered = tested.filter((d, i) => d.assessment.priority === 'critical' && warm[i].priority !== 'critical');
  const area = wrong >= 30 && wrong < judged.length ? auroc(judged) : NaN;
  return {
    kind,
    group,
    taught: taught.length,
    tested: tested.length,
    cold_rho: round(
      spearman(
        tested.map((d) => d.assessment.score),
        levels,
      ),
      3,
    ),
    warm_rho: round(
      spearman(
        warm.map((w) => w.score),
        levels,
      ),
      3,
    ),
    cold_exact: round(exact(tested.map((d) => d.assessment.priority)), 3),
    warm_exact: round(exact(warm.map((w) => w.priority)), 3),
    constant: round(exact(tested.map(() => common)), 3),
    learned: round(tested.filter((d) => speaksOn(d.signal)).length / tested.length, 3),
    warm_wrong: wrong,
    warm_auroc: Number.isNaN(area) ? null : round(area, 3),
    warm_ece: reliabilityTable(judged, TEN_BINS).ece,
    ece_by_chance: eceByChance(judged, TEN_BINS),
    unlike: Object.fromEntries(
      Object.entries(unlikeTexts).map(([name, texts]) => [name, texts.filter(speaksOn).length / texts.length]),
    ),
    judged,
    priorities: warm.map((w) => w.priority),
    scores: warm.map((w) => w.score),
    critical: {
      global: tested.filter((d) => d.assessment.priority === 'critical').length,
      lowered: lowered.length,
      taughtCritical: lowered.filter((d) => taughtPriority(d) === 'critical').length,
    },
  };
}

const KIND_NAME: Record<SeverityKind, string> = { alert: 'alerts', bug: 'bugs' };
const GOALS: Record<SeverityKind, { rho: string; exact: string }> = {
  alert: { rho: '>= 0.6', exact: '>= 0.75' },
  bug: { rho: '>= 0.3', exact: '>= 0.75' },
};

export function warmSources(): {
  figures: Figure[];
  lines: string[];
  sources: Omit<WarmFigures, 'judged' | 'priorities' | 'scores' | 'critical' | 'unlike'>[];
} {
  const all = foldCalibrated(decisionsByFold());
  const checks = Object.fromEntries(Object.entries(UNLIKE_CHECK).map(([name, load]) => [name, load()]));
  const out: WarmFigures[] = [];
  const lines = [
    'Warm: half of each source imported as {priority} (seeded, label-stratified), the other half decided with and without it',
    '  (ECE beside what a calibrated confidence shows on as many decisions by chance: mean and 95th percentile)',
  ];
  const figures: Figure[] = [];
  for (const kind of ['alert', 'bug'] as const) {
    const mine = all.filter((d) => d.kind === kind);
    for (const group of [...new Set(mine.map((d) => d.group))]) {
      const f = warmSource(
        kind,
        group,
        mine.filter((d) => d.group === group),
        { ...checks, 'check other kind': otherKind(all, kind, 150) },
      );
      out.push(f);
      lines.push(
        `  ${KIND_NAME[kind]} ${group.padEnd(40)} taught ${String(f.taught).padStart(5)}  learned on ${f.learned.toFixed(2)}  rho ${f.cold_rho.toFixed(3)} -> ${f.warm_rho.toFixed(3)}  exact ${f.cold_exact.toFixed(3)} -> ${f.warm_exact.toFixed(3)} (constant ${f.constant.toFixed(3)})  AUROC ${f.warm_auroc === null ? '  -  ' : f.warm_auroc.toFixed(3)}  ECE ${f.warm_ece.toFixed(3)} (chance ${f.ece_by_chance.mean.toFixed(3)}, 95% ${f.ece_by_chance.p95.toFixed(3)})`,
      );
    }
    const ofKind = out.filter((f) => f.kind === kind);
    const worstBy = (key: (f: WarmFigures) => number) => ofKind.reduce((a, b) => (key(b) < key(a) ? b : a));
    const rho = worstBy((f) => f.warm_rho);
    const exact = worstBy((f) => f.warm_exact);
    const margin = worstBy((f) => f.warm_exact - f.constant);
    const withAuroc = ofKind.filter((f) => f.warm_auroc !== null);
    const pooled = reliabilityTable(
      ofKind.flatMap((f) => f.judged),
      TEN_BINS,
    );
    // Signals the global engine escalated that the workspace's history lowered: right when it taught them lower.
    const crit = { global: 0, lowered: 0, taughtCritical: 0 };
    for (const f of ofKind) {
      crit.global += f.critical.global;
      crit.lowered += f.critical.lowered;
      crit.taughtCritical += f.critical.taughtCritical;
    }
    figures.push(
      figure(`${KIND_NAME[kind]} warm rho, worst source (${rho.group})`, rho.warm_rho, GOALS[kind].rho),
      figure(
        `${KIND_NAME[kind]} warm exact priority, worst source (${exact.group})`,
        exact.warm_exact,
        GOALS[kind].exact,
      ),
      figure(
        `${KIND_NAME[kind]} warm exact minus always-the-most-common, worst (${margin.group})`,
        round(margin.warm_exact - margin.constant, 3),
        '>= 0',
      ),
      figure(
        `${KIND_NAME[kind]} warm sources below always-the-most-common (of ${ofKind.length})`,
        ofKind.filter((f) => f.warm_exact < f.constant).length,
        '0',
      ),
      figure(
        `${KIND_NAME[kind]} warm: critical lowered by what was taught (of ${crit.global}; of those lowered, ${crit.taughtCritical} taught critical)`,
        crit.lowered,
        'context',
      ),
      figure(
        `${KIND_NAME[kind]} warm sources whose rho is below their cold rho (of ${ofKind.length})`,
        ofKind.filter((f) => f.warm_rho < f.cold_rho).length,
        'context',
      ),
    );
    if (withAuroc.length > 0) {
      const a = withAuroc.reduce((x, y) => (y.warm_auroc! < x.warm_auroc! ? y : x));
      figures.push(
        figure(`${KIND_NAME[kind]} warm confidence AUROC, worst source (${a.group})`, a.warm_auroc!, '>= 0.75'),
      );
    }
    const e = ofKind.reduce((x, y) => (y.warm_ece > x.warm_ece ? y : x));
    figures.push(
      figure(`${KIND_NAME[kind]} warm confidence ECE, worst source (${e.group})`, e.warm_ece, '<= 0.08'),
      ...eceBesideChance(
        `${KIND_NAME[kind]} warm`,
        e,
        ofKind.map((f) => ({ ece: f.warm_ece, ece_by_chance: f.ece_by_chance })),
      ),
      // Issue 31 judges the worst source (the row above); the pool is context.
      figure(`${KIND_NAME[kind]} warm confidence ECE, all sources pooled`, pooled.ece, 'context'),
    );
  }
  // Section 13: a signal unlike the history keeps the global priority. Held-out samples of other text, 150 each under
  // every source's taught half (bin/eval/unlike-samples.ts, UNLIKE_CHECK: never used to choose the test).
  const NAMES: Record<string, string> = {
    'check banking': 'BANKING77 queries',
    'check enron': 'Enron mail',
    'check sms': 'ordinary SMS',
    'check other kind': "the other kind's alerts or bugs",
  };
  for (const [name, label] of Object.entries(NAMES))
    figures.push(
      figure(
        `warm: unlike text given a learned priority, ${label} (150 under each of the ${out.length} taught halves, mean)`,
        round(out.reduce((a, f) => a + f.unlike[name], 0) / out.length, 3),
        'context',
      ),
    );
  return {
    figures,
    lines,
    sources: out.map(({ judged: _j, priorities: _p, scores: _s, critical: _c, unlike: _u, ...rest }) => rest),
  };
}
