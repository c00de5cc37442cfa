// `workspace import --workspace <ws> --file <path>` and `workspace forget --workspace <ws>` (docs/partners.md,
// "Importing your history, and forgetting it"). The import runs the API's own use case (lambdas/import-examples)
// straight on the tables, in imports of 100 with an Idempotency-Key derived from the file's content, the workspace, the
// model generation the chunk is written in and the chunk's position: running the same file again within 24 hours,
// after an interruption, teaches nothing twice (after a reset, even one in the middle of a run, it teaches the new
// model each example once). Progress goes to a terminal's stderr.
import { ADMIN_IMPORT_NAMESPACE, AdminInputError, assertWorkspace } from './operator-input';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { canonicalJson } from '../../lambdas/application/analyze-signal';
import { ITEM_PREFIX } from '../../lambdas/contract/tables';
import { WorkspaceCache } from '../../lambdas/domain/learning/workspace-cache';
import { importExamples } from '../../lambdas/import-examples/import-examples';
import { importAudit } from '../../lambdas/application/import-examples';
import { IMPORT_BODY } from '../../lambdas/http/import-envelope';
import { DynamoModelWriteStore } from '../../lambdas/stores/model-write-store';
import { DynamoWorkspaceStore } from '../../lambdas/stores/workspace-store';
import { type FileProblem, type FileWarning, parseImportFile } from './workspace-import-file';
import { inParallel } from '../../lambdas/domain/in-parallel';

interface ImportReport {
  workspace_id: string;
  examples: number;
  /** Examples this run taught. */
  learned: number;
  /** Examples an earlier run of the same file taught (chunks answered from their record): not taught again. */
  already_learned: number;
  /** Lines not imported. */
  errors: FileProblem[];
  /** What the file held that was ignored (an unknown CSV column): every line still imported. */
  warnings: FileWarning[];
}

interface ImportProgress {
  done: number;
  total: number;
  elapsedMs: number;
}

/**
 * Imports sent at once (DynamoDB Local on two cores: 4 took the BANKING77 set from 58 s to the figure in
 * docs/learning.md).
 */
const CHUNKS_IN_FLIGHT = 4;

/**
 * The largest file read: it is read whole, and its examples take about six times its size in memory (a 300 MB file of
 * short examples, 1.9 GB); from 512 MB the text cannot be one string at all. A larger file is split by lines.
 */
export const MAX_IMPORT_FILE_BYTES = 256 * 1024 * 1024;

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** `12s`, `3m05s`: time left at the current rate. */
const duration = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
};

/** One progress line: examples done, rate and time left (for a terminal). */
export function progressLine({ done, total, elapsedMs }: ImportProgress): string {
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const left = rate > 0 ? ((total - done) / rate) * 1000 : 0;
  return `imported ${done}/${total} examples  ${rate.toFixed(0)}/s  ${done < total ? `${duration(left)} left` : 'done'}`;
}

export class WorkspaceImporter {
  private readonly store: DynamoModelWriteStore;
  private readonly workspaceStore: DynamoWorkspaceStore;

  constructor(
    client: DynamoDBDocumentClient,
    decisionsTable: string,
    learningTable: string,
    /** The audit events' actor: `local:<OS user>`, or the caller's principal ARN with --aws. */
    private readonly actor: string,
  ) {
    this.store = new DynamoModelWriteStore(client, decisionsTable, learningTable);
    this.workspaceStore = new DynamoWorkspaceStore(client, decisionsTable, learningTable);
  }

  async importFile(
    workspace: string | undefined,
    file: string | undefined,
    onProgress?: (p: ImportProgress) => void,
  ): Promise<ImportReport> {
    const ws = assertWorkspace(workspace);
    if (!file) throw new AdminInputError('--file is required');
    let content: Buffer;
    try {
      const { size } = statSync(file);
      if (size > MAX_IMPORT_FILE_BYTES)
        throw new AdminInputError(
          `${file} is ${Math.ceil(size / 2 ** 20)} MB; files up to ${MAX_IMPORT_FILE_BYTES / 2 ** 20} MB are imported: ` +
            'split it into files of whole records and import each',
        );
      content = readFileSync(file);
    } catch (err) {
      if (err instanceof AdminInputError) throw err;
      throw new AdminInputError(`cannot read ${file}: ${(err as Error).message}`);
    }
    const parsed = parseImportFile(content.toString('utf8'), file);
    const fileHash = sha256(content);
    // The import reads the workspace once (its sketch key and generation); each chunk then adds to that copy.
    const workspaces = new WorkspaceCache((id) => this.workspaceStore.loadState(id), 24 * 60 * 60 * 1000);
    await workspaces.get(ws);
    const errors: FileProblem[] = [...parsed.problems];
    const started = Date.now();
    let learned = 0;
    let alreadyLearned = 0;
    const { records } = parsed;
    const chunks = Math.ceil(records.length / IMPORT_BODY.max);
    let done = 0;
    const importChunk = async (chunk: number) => {
      const start = chunk * IMPORT_BODY.max;
      const slice = records.slice(start, start + IMPORT_BODY.max);
      const examples = slice.map((r) => r.example);
      // The model generation the chunk is written in too: after a reset, the same file teaches the new model again,
      // and a chunk written again in the middle of a run, after a reset, is recorded for the generation it taught.
      const idempotencyKey = (generation: number) => `${fileHash}:${ws}:g${generation}:${chunk}`;
      const outcome = await importExamples(
        ws,
        examples,
        { workspaces, store: this.store },
        {
          nowMs: Date.now(),
          idempotency: {
            pk: (generation) =>
              `${ITEM_PREFIX.idempotency}${ADMIN_IMPORT_NAMESPACE}#${sha256(idempotencyKey(generation))}`,
            requestHash: sha256(canonicalJson({ examples })),
          },
          audit: importAudit(this.actor, { workspace_id: ws }, () => new Date()),
        },
      );
      if (outcome.kind === 'conflict')
        throw new Error(`chunk ${chunk + 1} was imported before with other content; nothing more was imported`);
      if (outcome.kind === 'replayed') alreadyLearned += outcome.answer.learned;
      else learned += outcome.answer.learned;
      for (const item of outcome.answer.data) {
        if (!('error' in item)) continue;
        const details = item.error.details?.map((d) => `${d.field} ${d.message}`).join('; ');
        errors.push({ line: slice[item.index].line, code: item.error.code, message: details || item.error.message });
      }
      done += slice.length;
      onProgress?.({ done, total: records.length, elapsedMs: Date.now() - started });
    };
    // A few chunks in flight at once: each is a separate import with its own key, so their order does not matter.
    await inParallel(
      Array.from({ length: chunks }, (_, chunk) => chunk),
      CHUNKS_IN_FLIGHT,
      importChunk,
    );
    errors.sort((a, b) => a.line - b.line);
    return {
      workspace_id: ws,
      examples: parsed.examples,
      learned,
      already_learned: alreadyLearned,
      errors,
      warnings: parsed.warnings,
    };
  }

  /** Resets the workspace's model to a new, empty generation (policy and decisions stay). */
  async forget(workspace: string | undefined): Promise<{ workspace_id: string; forgotten: true }> {
    const ws = assertWorkspace(workspace);
    await this.store.forget(ws, ({ before, after }) => ({
      event: { actor: this.actor, action: 'model.forget', target: { workspace_id: ws }, before, after },
      at: new Date(),
    }));
    return { workspace_id: ws, forgotten: true };
  }
}

/** `workspace import`: the file imported, progress drawn on a terminal. */
export async function importFileOutput(
  importer: WorkspaceImporter,
  workspace: string | undefined,
  file: string | undefined,
  progress: NodeJS.WriteStream = process.stderr,
) {
  const tty = progress.isTTY === true;
  let lastDraw = 0;
  const report = await importer.importFile(workspace, file, (p) => {
    if (!tty || (p.done < p.total && Date.now() - lastDraw < 100)) return;
    lastDraw = Date.now();
    progress.write(`\r${progressLine(p)}\x1b[K`);
  });
  if (tty) progress.write('\n');
  const before = report.already_learned
    ? ` (and ${report.already_learned} by an earlier run of this file, not taught twice)`
    : '';
  const lines = [
    `workspace ${report.workspace_id}: ${report.learned} of ${report.examples} examples learned${before}, ${report.errors.length} error(s)`,
    ...report.errors.slice(0, 50).map((e) => `  line ${e.line}: ${e.code} ${e.message}`),
    ...(report.errors.length > 50 ? [`  ... (${report.errors.length - 50} more; --json lists them all)`] : []),
    ...report.warnings.map((w) => `  line ${w.line}: warning: ${w.message}`),
    // A run is keyed by the file's content: the same file again teaches nothing twice, an edited one is a new file.
    ...(report.errors.length && report.learned + report.already_learned
      ? [
          '  to teach the corrected lines, import a file of those lines only: an edited copy of this file teaches its other lines again',
        ]
      : []),
  ];
  // A line not imported is a failure a script must see, as migrate-learning's failed workspaces are: exit 1.
  return { json: { ...report }, text: lines.join('\n'), code: report.errors.length ? 1 : 0 };
}
