// The archive figures through the API (issue 31): partners, and the owner's own measure, send each message to
// `POST /signals/analyze`. This sends the held-out e-mail, web-form and SMS cases the same way, to local mode (the real
// handlers over a socket, DynamoDB Local), each having waited as long as in process (atWallClock), and counts where
// the API's decision (action, priority, category, score) differs from the in-process one the goal rows read.
import { inParallel } from '../../lambdas/domain/in-parallel';
import { atWallClock, type Post } from './api-post';
import type { Corpus, Scored } from './labeled';
import { figure, round, type Figure } from './report';

const CORPORA: readonly Corpus[] = ['spamassassin', 'web-form spam', 'sms', 'enron'];

export async function archiveThroughApi(
  { post }: { post: Post },
  scored: readonly Scored[],
): Promise<{ figures: Figure[]; lines: string[] }> {
  const cases = scored.filter((s) => CORPORA.includes(s.corpus));
  const archived = new Array<boolean>(cases.length);
  let sameDecision = 0;
  await inParallel(cases, 8, async (c, i) => {
    const { workspace_id: _eval, ...signal } = c.signal;
    const received_at = atWallClock(signal.received_at, c.now);
    const answer = await post('/signals/analyze', { ...signal, received_at, workspace_id: 'ws_archive' });
    archived[i] = answer.recommended_action === 'archive';
    const a = c.assessment;
    if (
      answer.recommended_action === a.recommended_action &&
      answer.priority === a.priority &&
      answer.category === a.category &&
      answer.score === a.score
    )
      sameDecision++;
  });
  const lines = ['Archive through the API (local mode, one analyze per message; beside the in-process figures above)'];
  let same = 0;
  for (const corpus of CORPORA) {
    const of = cases.flatMap((c, i) => (c.corpus === corpus ? [{ c, api: archived[i] }] : []));
    const count = (spam: boolean, api: boolean) =>
      of.filter(
        (x) => (x.c.label === 'spam') === spam && (api ? x.api : x.c.assessment.recommended_action === 'archive'),
      ).length;
    const spam = of.filter((x) => x.c.label === 'spam').length;
    same += of.filter((x) => x.api === (x.c.assessment.recommended_action === 'archive')).length;
    lines.push(
      `  ${corpus.padEnd(14)} spam archived ${count(true, true)} of ${spam} (in process ${count(true, false)}), ` +
        `ordinary archived ${count(false, true)} of ${of.length - spam} (in process ${count(false, false)})`,
    );
  }
  return {
    figures: [
      figure(
        `archive through the API: same answer as the in-process measure (${cases.length})`,
        round(same / cases.length, 4),
        'context',
      ),
      figure(
        `archive through the API: same action, priority, category and score (${cases.length})`,
        round(sameDecision / cases.length, 4),
        'context',
      ),
    ],
    lines,
  };
}
