// The eval's held-out alerts and bug reports (bin/eval/labeled.ts) scored fold by fold: each source or project by a
// severity model and a confidence model fitted without it (bin/severity-folds.ts), since the shipped models learned
// from every development source.
import { scoreSignal } from '../../lambdas/domain/engine';
import { useConfidenceModel } from '../../lambdas/domain/engine/confidence';
import { foldConfidence, foldEngineModels } from '../severity-folds';
import { scoreCases, type Case, type Scored } from './labeled';

export function scoreRankedCasesByFold(cases: readonly Case[]): Scored[] {
  const out: Scored[] = [];
  const groups = [...new Set(cases.map((c) => c.group!))];
  for (const group of groups) {
    const list = cases.filter((c) => c.group === group);
    const kind = list[0].corpus === 'alerts' ? 'alert' : 'bug';
    useConfidenceModel(foldConfidence(group));
    out.push(...scoreCases(list, (c) => scoreSignal(c.signal, c.now, foldEngineModels(kind, group))));
  }
  useConfidenceModel(null);
  return out;
}
