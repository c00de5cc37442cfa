// Admin commands for workspaces (README, Admin CLI): `workspace policy get|set` and `feedback report`. The policy
// is validated with the API's own schema and answered exactly as the API answers it; the report reads a workspace's
// decisions through the listing index (Queries, never a Scan).
import { AdminInputError, assertWorkspace } from './admin/operator-input';
import { DynamoDecisionListStore } from '../lambdas/stores/decision-list-store';
import { readFileSync } from 'node:fs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LEARNED_FIELDS, type LearnedField } from '../lambdas/domain/learning/model';
import { parseRfc3339 } from '../lambdas/domain/timestamps';
import { POLICY_MAX_BYTES, validatePolicy } from '../lambdas/http/policy-schema';
import { DynamoWorkspaceStore } from '../lambdas/stores/workspace-store';
import { localActor } from './admin/actor';

interface FieldAgreement {
  given: number;
  agreed: number;
  agreement: number | null;
}

interface FeedbackReport {
  workspace_id: string;
  decisions: number;
  with_feedback: number;
  fields: Record<LearnedField, FieldAgreement>;
  disagreement_reasons: { code: string; count: number }[];
}

export class WorkspaceAdmin {
  private readonly store: DynamoWorkspaceStore;
  private readonly decisionList: DynamoDecisionListStore;

  constructor(
    client: DynamoDBDocumentClient,
    decisionsTable: string,
    learningTable: string,
    /** The audit events' actor (docs/operations.md, "Audit log"). */
    private readonly actor: string = localActor(),
  ) {
    this.store = new DynamoWorkspaceStore(client, decisionsTable, learningTable);
    this.decisionList = new DynamoDecisionListStore(client, decisionsTable);
  }

  getPolicy(workspace: string | undefined) {
    return this.store.getPolicy(assertWorkspace(workspace));
  }

  async setPolicy(workspace: string | undefined, file: string | undefined) {
    const ws = assertWorkspace(workspace);
    if (!file) throw new AdminInputError('--file is required');
    let body: unknown;
    try {
      const bytes = readFileSync(file);
      // As the PUT route takes it: a larger policy would be stored, then refused 413 when a partner sends back what
      // GET answered.
      if (bytes.length > POLICY_MAX_BYTES) {
        throw new Error(`it is ${bytes.length} bytes, over the ${POLICY_MAX_BYTES / 1024} KiB a policy may be`);
      }
      const text = bytes.toString('utf8');
      // A byte order mark, as Windows editors write one, is not part of the JSON (as for an import file).
      body = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch (err) {
      throw new AdminInputError(`cannot read a JSON policy from ${file}: ${(err as Error).message}`);
    }
    const validation = validatePolicy(body);
    if (!validation.ok) {
      throw new AdminInputError(
        `invalid policy: ${validation.details.map((d) => `${d.field} ${d.message}`).join('; ')}`,
      );
    }
    const out = await this.store.putPolicy(ws, validation.policy, undefined, new Date().toISOString(), {
      actor: this.actor,
    });
    if (out.kind !== 'stored') throw new Error('the policy changed during the update; retry');
    return out.policy;
  }

  async feedbackReport(workspace: string | undefined, since: string | undefined): Promise<FeedbackReport> {
    const ws = assertWorkspace(workspace);
    if (since !== undefined && parseRfc3339(since) === undefined)
      throw new AdminInputError('--since must be an ISO 8601 timestamp with Z or an offset');
    const fields = Object.fromEntries(
      LEARNED_FIELDS.map((f) => [f, { given: 0, agreed: 0, agreement: null }]),
    ) as Record<LearnedField, FieldAgreement>;
    const reasons = new Map<string, number>();
    let decisions = 0;
    let withFeedback = 0;
    const createdAfterMs = since ? parseRfc3339(since) : undefined;
    for await (const { decision, feedback } of this.decisionList.decisionsWithFeedback(ws, createdAfterMs)) {
      decisions++;
      if (!feedback) continue;
      withFeedback++;
      let disagreed = false;
      for (const f of LEARNED_FIELDS) {
        if (feedback[f] === undefined) continue;
        fields[f].given++;
        if (decision[f] === feedback[f]) fields[f].agreed++;
        else disagreed = true;
      }
      if (!disagreed) continue;
      // Decisions a code is present on, as the report says: once per decision, however many reasons carry it.
      const codes = new Set(((decision.reasons as { code: string }[] | undefined) ?? []).map((r) => r.code));
      for (const code of codes) reasons.set(code, (reasons.get(code) ?? 0) + 1);
    }
    for (const f of LEARNED_FIELDS)
      fields[f].agreement = fields[f].given ? Math.round((fields[f].agreed / fields[f].given) * 1000) / 1000 : null;
    return {
      workspace_id: ws,
      decisions,
      with_feedback: withFeedback,
      fields,
      disagreement_reasons: [...reasons]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, 20)
        .map(([code, count]) => ({ code, count })),
    };
  }
}

export const policyOutput = (policy: object) => ({ json: { ...policy }, text: JSON.stringify(policy, null, 2) });

/** `feedback report`'s output. */
export function feedbackReportOutput(r: FeedbackReport) {
  const lines = [
    `workspace ${r.workspace_id}: ${r.decisions} decisions, ${r.with_feedback} with feedback`,
    ...LEARNED_FIELDS.map((f) => {
      const x = r.fields[f];
      return `  ${f.padEnd(19)} given ${String(x.given).padStart(6)}  agreed ${String(x.agreed).padStart(6)}  agreement ${x.agreement ?? '-'}`;
    }),
    'reason codes most present where feedback disagreed:',
    ...(r.disagreement_reasons.length ? r.disagreement_reasons.map((d) => `  ${d.code} ${d.count}`) : ['  (none)']),
  ];
  return { json: { ...r }, text: lines.join('\n') };
}
