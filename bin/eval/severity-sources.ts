// `npm run eval`'s severity section (issue 31): leave one source out over every development alert source and tracker
// (bin/severity-folds.ts). Per source: rank correlation of the score with the author's label, the share whose band fits
// the label, and the confidence's AUROC (right vs wrong, >= 30 wrong) and ECE, each from models fitted without it (a
// ranked ticket's confidence from `ranked_task` fitted without its tracker: bin/eval/fold-confidence.ts).
// The goals are judged on the worst source, never on the pool. No text is printed.
import type { SeverityKind } from '../severity-data';
import { decisionsByFold, type RankedDecision } from '../severity-folds';
import { foldCalibrated } from './fold-confidence';
import { BUG_TRAIN_PROJECT, loadAlerts } from '../data-splits';

/** The middle value, or the mean of the middle two of an even count. */
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
import { TEN_BINS, auroc, eceByChance, figure, reliabilityTable, round, spearman, type Figure } from './report';

interface SourceFigures {
  kind: SeverityKind;
  group: string;
  n: number;
  rho: number;
  band_fits: number;
  wrong: number;
  auroc: number | null;
  ece: number;
  /** The ECE a calibrated confidence would show on these decisions by chance (bin/eval/report.ts, eceByChance). */
  ece_by_chance: { mean: number; p95: number };
  /** The shipped confidence model was fitted on this source (TIMOB, the alert-rules-dev.jsonl sources). */
  confidence_in_sample: boolean;
}

const KIND_NAME: Record<SeverityKind, string> = { alert: 'alerts', bug: 'bugs' };
const RHO_GOAL: Record<SeverityKind, string> = { alert: '>= 0.4', bug: '>= 0.25' };

export function severitySources(): { figures: Figure[]; lines: string[]; sources: SourceFigures[] } {
  const all = foldCalibrated(decisionsByFold());
  const confidenceTaught = new Set([BUG_TRAIN_PROJECT, ...loadAlerts().map((r) => r.source)]);
  const sources: SourceFigures[] = [];
  const lines: string[] = [
    'Severity, leave one source out (each source scored by a severity model that never saw it; right = the band fits the label;',
    '  confidence: the shipped model, fitted on TIMOB and alert-rules-dev.jsonl: * = in sample, left out of the worst;',
    '  "other" pools alert-rules-dev.jsonl rules: its band and confidence models refitted without their sources;',
    '  a ranked ticket states ranked_task fitted on the other trackers; ECE beside what a calibrated confidence shows on as',
    '  many decisions by chance: mean and 95th percentile)',
  ];
  const figures: Figure[] = [];
  for (const kind of ['alert', 'bug'] as const) {
    const mine = all.filter((d) => d.kind === kind);
    const groups = [...new Set(mine.map((d) => d.group))];
    const judgedAll: { confidence: number; right: boolean }[] = [];
    for (const group of groups) {
      const list: RankedDecision[] = mine.filter((d) => d.group === group);
      const judged = list.map((d) => ({ confidence: d.assessment.confidence, right: d.right }));
      if (!confidenceTaught.has(group)) judgedAll.push(...judged);
      const wrong = judged.filter((j) => !j.right).length;
      const area = wrong >= 30 && wrong < judged.length ? auroc(judged) : NaN;
      const f: SourceFigures = {
        kind,
        group,
        n: list.length,
        rho: round(
          spearman(
            list.map((d) => d.assessment.score),
            list.map((d) => d.level),
          ),
          3,
        ),
        band_fits: round(list.filter((d) => d.right).length / list.length, 3),
        wrong,
        auroc: Number.isNaN(area) ? null : round(area, 3),
        ece: reliabilityTable(judged, TEN_BINS).ece,
        ece_by_chance: eceByChance(judged, TEN_BINS),
        confidence_in_sample: confidenceTaught.has(group),
      };
      sources.push(f);
      lines.push(
        `  ${KIND_NAME[kind]} ${group.padEnd(40)} n ${String(f.n).padStart(5)}  rho ${f.rho.toFixed(3).padStart(6)}  band fits ${f.band_fits.toFixed(3)}  wrong ${String(wrong).padStart(4)}  AUROC ${f.auroc === null ? '  -  ' : f.auroc.toFixed(3)}  ECE ${f.ece.toFixed(3)} (chance ${f.ece_by_chance.mean.toFixed(3)}, 95% ${f.ece_by_chance.p95.toFixed(3)})${f.confidence_in_sample ? ' *' : ''}`,
      );
    }
    const ofKind = sources.filter((s) => s.kind === kind);
    const worst = ofKind.reduce((a, b) => (b.rho < a.rho ? b : a));
    const heldOut = ofKind.filter((s) => !s.confidence_in_sample);
    const aurocs = heldOut.filter((s) => s.auroc !== null);
    const worstAuroc = aurocs.reduce((a, b) => (b.auroc! < a.auroc! ? b : a), aurocs[0]);
    const worstEce = heldOut.reduce((a, b) => (b.ece > a.ece ? b : a));
    const pooled = reliabilityTable(judgedAll, TEN_BINS);
    figures.push(
      figure(
        `${KIND_NAME[kind]} cold rho, worst of ${ofKind.length} held-out sources (${worst.group})`,
        worst.rho,
        RHO_GOAL[kind],
      ),
      figure(`${KIND_NAME[kind]} cold rho, median of the sources`, median(ofKind.map((f) => f.rho)), 'context'),
    );
    if (worstAuroc)
      figures.push(
        figure(
          `${KIND_NAME[kind]} cold confidence AUROC, worst source (${worstAuroc.group})`,
          worstAuroc.auroc!,
          '>= 0.75',
        ),
      );
    figures.push(
      figure(`${KIND_NAME[kind]} cold confidence ECE, worst source (${worstEce.group})`, worstEce.ece, '<= 0.08'),
      ...eceBesideChance(`${KIND_NAME[kind]} cold`, worstEce, heldOut),
      // Issue 31 judges the worst source (the row above); the pool is context.
      figure(`${KIND_NAME[kind]} cold confidence ECE, held-out sources pooled`, pooled.ece, 'context'),
    );
  }
  return { figures, lines, sources };
}

/**
 * Context for a worst-source ECE row: what a calibrated confidence would show on that source's decisions by chance,
 * and how many sources are beyond that (above its 95th percentile): miscalibrated, not merely small.
 */
export function eceBesideChance(
  what: string,
  worst: { group: string; ece_by_chance: { mean: number; p95: number } },
  sources: readonly { ece: number; ece_by_chance: { p95: number } }[],
): Figure[] {
  return [
    figure(
      `${what} confidence ECE a calibrated one shows by chance on ${worst.group} (95%: ${worst.ece_by_chance.p95})`,
      worst.ece_by_chance.mean,
      'context',
    ),
    figure(
      `${what} sources whose ECE is beyond chance (over its 95th percentile; of ${sources.length})`,
      sources.filter((s) => s.ece > s.ece_by_chance.p95).length,
      'context',
    ),
  ];
}
