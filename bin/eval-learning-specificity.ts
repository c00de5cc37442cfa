// Two figures of the learning eval beside its accuracy curve (issue 23):
// - importing the whole banking77 file through `workspace import`'s own code (lib/admin/workspace-import.ts) into
//   the eval's DynamoDB Local, timed;
// - specificity: a workspace taught the pool's queries of a subset of intents (source support_message, senders of
//   one domain) decides signals of other corpora (business e-mail, alert rules, bug reports) sent with the same
//   source and sender domain; the share that gets a taught label is the spillover (the contract's rule: never).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { WorkspaceImporter } from '../lib/admin/workspace-import';
import { jsonl } from './data-splits';

interface Example {
  text: string;
  category: string;
}

/** Intents taught to the specificity workspace: every 4th of the sorted names (19 of 77). */
const TAUGHT_EVERY = 4;
/** Signals per other corpus (the first ones in file order). */
const PER_CORPUS = 300;
const DOMAIN = 'bank.example';
/** The specificity workspace (its sketch key seeded by eval-learning.ts before it is taught). */
export const SPECIFICITY_WS = 'ws_spec';

export async function timeWorkspaceImport(
  client: DynamoDBDocumentClient,
  decisionsTable: string,
  examples: Example[],
): Promise<{ seconds: number }> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'evl-import-')), 'banking77.jsonl');
  writeFileSync(
    file,
    examples
      .map((e) =>
        JSON.stringify({ signal: { source: 'support_message', body: e.text }, labels: { category: e.category } }),
      )
      .join('\n'),
  );
  const t0 = Date.now();
  const report = await new WorkspaceImporter(
    client,
    decisionsTable,
    `${decisionsTable}-learning`,
    'local:eval-learning',
  ).importFile('ws_import_all', file);
  if (report.learned !== examples.length)
    throw new Error(`workspace import learned ${report.learned} of ${examples.length}`);
  return { seconds: (Date.now() - t0) / 1000 };
}

const firstRows = (file: string) => jsonl(file).slice(0, PER_CORPUS) as Record<string, string | null>[];

type Post = (p: string, body: unknown) => Promise<Record<string, unknown>>;

export async function measureSpecificity(pool: Example[], post: Post) {
  const names = [...new Set(pool.map((e) => e.category))].sort();
  const taught = new Set(names.filter((_, i) => i % TAUGHT_EVERY === 0));
  const set = pool.filter((e) => taught.has(e.category));
  const ws = SPECIFICITY_WS;
  for (let i = 0; i < set.length; i += 100) {
    const examples = set.slice(i, i + 100).map((e, j) => ({
      signal: { source: 'support_message', sender: `customer${(i + j) % 50}@${DOMAIN}`, body: e.text },
      labels: { category: e.category },
    }));
    await post(`/workspaces/${ws}/examples`, { examples });
  }
  const corpora: Record<string, { subject?: string; body: string }[]> = {
    business_email: firstRows('enron-berkeley.jsonl').map((m) => ({
      subject: m.subject ?? undefined,
      body: String(m.body ?? ''),
    })),
    alert_rules: firstRows('alert-rules-dev.jsonl').map((a) => ({
      subject: String(a.summary ?? a.name),
      body: String(a.description ?? ''),
    })),
    bug_reports: firstRows('bug-reports-dev.jsonl').map((b) => ({
      subject: String(b.summary),
      body: String(b.description ?? ''),
    })),
  };
  const byCorpus: Record<string, { decisions: number; taught: number }> = {};
  let decisions = 0;
  let taughtLabel = 0;
  let withReason = 0;
  for (const [corpus, signals] of Object.entries(corpora)) {
    byCorpus[corpus] = { decisions: 0, taught: 0 };
    for (const [i, s] of signals.entries()) {
      const body = s.body.slice(0, 20_000) || '(empty)';
      const d = await post('/signals/analyze', {
        workspace_id: ws,
        source: 'support_message',
        sender: `customer${i % 50}@${DOMAIN}`,
        ...(s.subject ? { subject: s.subject.slice(0, 1_000) } : {}),
        body,
      });
      decisions++;
      byCorpus[corpus].decisions++;
      if (!taught.has(String(d.category))) continue;
      taughtLabel++;
      byCorpus[corpus].taught++;
      if ((d.reasons as { code: string }[]).some((r) => r.code.startsWith('LEARNED_'))) withReason++;
    }
  }
  return {
    taught_intents: taught.size,
    taught_examples: set.length,
    decisions,
    taught_label_decisions: taughtLabel,
    taught_with_learned_reason: withReason,
    spillover: Math.round((taughtLabel / decisions) * 10_000) / 10_000,
    by_corpus: byCorpus,
  };
}
