// `workspace model --workspace <ws>` (docs/learning.md, "What a workspace learned"): the generation and, per learned
// field and label, how many examples the model holds, read the way a container loads it (the label items and every
// entry after their marks).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { assertWorkspace } from './operator-input';
import { LEARNED_FIELDS } from '../../lambdas/domain/learning/model';
import { DynamoWorkspaceStore } from '../../lambdas/stores/workspace-store';

interface WorkspaceModelReport {
  workspace_id: string;
  generation: number;
  labels: { field: string; label: string; examples: number }[];
}

export async function workspaceModel(
  client: DynamoDBDocumentClient,
  tables: { decisions: string; learning: string },
  workspace: string | undefined,
): Promise<WorkspaceModelReport> {
  const ws = assertWorkspace(workspace);
  // Read as a load reads it, but without the model item a first load makes: a typed id must leave nothing behind.
  const state = await new DynamoWorkspaceStore(client, tables.decisions, tables.learning).readState(ws);
  const order = (field: string) => LEARNED_FIELDS.indexOf(field as (typeof LEARNED_FIELDS)[number]);
  const labels = state.model.labels
    .filter((l) => l.docs > 0)
    .map((l) => ({ field: l.field, label: l.label, examples: l.docs }))
    .sort((x, y) => order(x.field) - order(y.field) || (x.label < y.label ? -1 : x.label > y.label ? 1 : 0));
  return { workspace_id: ws, generation: state.generation ?? 0, labels };
}

/** The report as the CLI prints it: one line per label under its generation. */
export function workspaceModelOutput(report: WorkspaceModelReport) {
  const lines = report.labels.map((l) => `  ${l.field}  ${l.label}  ${l.examples}`);
  return {
    json: { ...report },
    text: [
      `workspace ${report.workspace_id}: generation ${report.generation}, ${report.labels.length} labels`,
      ...lines,
    ].join('\n'),
  };
}
