// The archive figures through the API (issue 31): partners, and the owner's own measure, send each message to
// `POST /signals/analyze`. This sends the held-out e-mail, web-form and SMS cases the same way, to local mode (the real
// handlers over a socket, DynamoDB Local), and counts where the API's archive answer differs from the in-process one
// the goal rows read. Only the archive answer is compared: the API decides at the wall clock and the in-process measure
// at a fixed time, and an ordinary message's waiting time moves its priority (never its archive: an archive category
// takes no waiting points).
import { inParallel } from '../../lambdas/domain/in-parallel';
import type { Post } from './api-post';
import type { Corpus, Scored } from './labeled';
import { figure, round, type Figure } from './report';

const CORPORA: readonly Corpus[] = ['spamassassin', 'web-form spam', 'sms', 'enron'];

export async function archiveThroughApi(
  { post }: { post: Post },
  scored: readonly Scored[],
): Promise<{ figures: Figure[]; lines: string[] }> {
  const cases = scored.filter((s) => CORPORA.includes(s.corpus));
  const archived = new Array<boolean>(cases.length);
  await inParallel(cases, 8, async (c, i) => {
    const { workspace_id: _eval, ...signal } = c.signal;
    const answer = await post('/signals/analyze', { ...signal, workspace_id: 'ws_archive' });
    archived[i] = answer.recommended_action === 'archive';
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
    ],
    lines,
  };
}
