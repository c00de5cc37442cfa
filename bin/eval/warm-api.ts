// The warm measurement through the API (issue 31): for a few development sources, the taught half is imported with
// `POST /workspaces/{id}/examples` (labels `{priority}`) into a fresh workspace of local mode (the real handlers over a
// socket, DynamoDB Local), the tested half is sent to `POST /signals/analyze` there and to another fresh workspace
// (cold), and the figures are printed beside the in-process ones of bin/eval/warm-sources.ts for the same rows, scored
// by the shipped models. The warm workspace hashes with the in-process measure's sketch key, and each signal has
// waited as long as in process (atWallClock), so the two paths must give the same priority, score and confidence to
// every signal: a difference is a defect of the API's path (an import that lost counts, a model read otherwise), not
// noise.
import type { Scratch } from '../../lib/local/scratch';
import { atWallClock, type Post } from './api-post';
import { chunks, inParallel } from '../../lambdas/domain/in-parallel';
import type { Priority } from '../../lambdas/domain/decision';
import { scoreSignal } from '../../lambdas/domain/engine';
import { ALERT_NOW, type SeverityKind } from '../severity-data';
import { decisionsByFold } from '../severity-folds';
import { decisionText, evalSketchKeyText, taughtPriority, warmHalves, warmSource } from './warm-sources';
import { figure, round, spearman, type Figure } from './report';
import { seedSketchKeys } from './seeded-sketch-keys';

/**
 * Sources measured through the API: two small ones, the largest alert source and a large tracker (imports of
 * hundreds; jQuery UI's 3,926 agreed on every signal once, measured by hand, and takes 17 s more).
 */
const API_SOURCES: readonly { kind: SeverityKind; group: string }[] = [
  { kind: 'bug', group: 'DAEMON' },
  { kind: 'alert', group: 'gardener/gardener' },
  { kind: 'alert', group: 'sapcc/helm-charts' },
  { kind: 'bug', group: 'ALOY' },
];

interface Answer {
  priority: Priority;
  score: number;
  confidence: number;
}

export async function warmThroughApi({ scratch, post }: { scratch: Scratch; post: Post }): Promise<{
  figures: Figure[];
  lines: string[];
}> {
  const lines = ['Warm through the API (local mode: import, then analyze; beside the in-process figures above)'];
  const figures: Figure[] = [];
  let agree = 0;
  let agreeScore = 0;
  let agreeConfidence = 0;
  let total = 0;
  for (const [i, { kind, group }] of API_SOURCES.entries()) {
    // Scored in process as the API scores them, by the shipped models (the eval's own rows use a model fitted without
    // the source where the shipped one learned from it).
    const now = new Date(ALERT_NOW);
    const list = decisionsByFold()
      .filter((d) => d.kind === kind && d.group === group)
      .map((d) => ({ ...d, assessment: scoreSignal(d.signal, now) }));
    const { taught, tested } = warmHalves(list, decisionText);
    const warmWs = `ws_warm${i}`;
    const coldWs = `ws_cold${i}`;
    await seedSketchKeys(scratch.client, scratch.names.decisions, [coldWs]);
    await seedSketchKeys(scratch.client, scratch.names.decisions, [warmWs], () => evalSketchKeyText(group));
    const text = (d: (typeof list)[number]) => ({ subject: d.signal.subject, body: d.signal.body });
    await inParallel(chunks(taught, 100), 2, async (chunk) => {
      const examples = chunk.map((d) => ({
        signal: { source: d.signal.source, ...text(d) },
        labels: { priority: taughtPriority(d) },
      }));
      const out = await post(`/workspaces/${warmWs}/examples`, { examples });
      if (out.learned !== chunk.length) throw new Error(`import into ${warmWs} learned ${String(out.learned)}`);
    });
    const ask = async (ws: string) => {
      const answers: Answer[] = new Array<Answer>(tested.length);
      await inParallel(tested, 4, async (d, j) => {
        const received_at = atWallClock(d.signal.received_at, now);
        const body = { workspace_id: ws, source: d.signal.source, received_at, ...text(d) };
        answers[j] = (await post('/signals/analyze', body)) as unknown as Answer;
      });
      return answers;
    };
    const warm = await ask(warmWs);
    const cold = await ask(coldWs);
    const inProcess = warmSource(kind, group, list);
    const levels = tested.map((d) => d.level);
    const exact = (answers: readonly Answer[]) =>
      round(answers.filter((a, j) => a.priority === taughtPriority(tested[j])).length / tested.length, 3);
    const same = warm.filter((a, j) => a.priority === inProcess.priorities[j]).length;
    const sameScore = warm.filter((a, j) => a.score === inProcess.scores[j]).length;
    const sameConfidence = warm.filter((a, j) => a.confidence === inProcess.judged[j].confidence).length;
    agree += same;
    agreeScore += sameScore;
    agreeConfidence += sameConfidence;
    total += tested.length;
    lines.push(
      `  ${kind === 'alert' ? 'alerts' : 'bugs'} ${group.padEnd(28)} taught ${taught.length}, tested ${tested.length}: ` +
        `rho ${round(
          spearman(
            cold.map((a) => a.score),
            levels,
          ),
          3,
        )} -> ${round(
          spearman(
            warm.map((a) => a.score),
            levels,
          ),
          3,
        )}, ` +
        `exact ${exact(cold)} -> ${exact(warm)} (in process ${inProcess.cold_exact} -> ${inProcess.warm_exact}); ` +
        `same warm priority as in process ${same} of ${tested.length}, same score ${sameScore}, same confidence ${sameConfidence}`,
    );
  }
  figures.push(
    figure(
      `warm through the API: same priority as the in-process measure (${total})`,
      round(agree / total, 3),
      'context',
    ),
    figure(
      `warm through the API: same score as the in-process measure (${total})`,
      round(agreeScore / total, 3),
      'context',
    ),
    figure(
      `warm through the API: same confidence as the in-process measure (${total})`,
      round(agreeConfidence / total, 3),
      'context',
    ),
  );
  return { figures, lines };
}
