// `workspace import` (lib/admin/workspace-import.ts) when the workspace's model is forgotten in the middle of a run
// (docs/partners.md, "Importing your history, and forgetting it"): run again, the same file teaches the new model
// each example exactly once. The forget is caused for real, between two chunks' writes, by holding the later chunks'
// transactions of the importer's DynamoDB client until it has landed; nothing is mocked.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { WorkspaceImporter } from '../../lib/admin/workspace-import';
import { learningTableOf } from '../../lambdas/contract/settings';
import { DynamoModelWriteStore } from '../../lambdas/stores/model-write-store';
import { DynamoWorkspaceStore } from '../../lambdas/stores/workspace-store';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { testSettings } from '../support/local-api';

let tables: TestTables;
let learning: string;
beforeAll(async () => {
  tables = await createTestTables('importforget');
  learning = learningTableOf(testSettings(tables));
});
afterAll(async () => tables?.drop());

const EXAMPLES = 250;

function historyFile(): string {
  const lines = Array.from({ length: EXAMPLES }, (_, i) =>
    JSON.stringify({
      signal: { source: 'email', sender: `ops${i}@carrier.example`, subject: `Shipment ${i} held at customs` },
      labels: { category: 'customs_hold' },
    }),
  );
  const file = join(mkdtempSync(join(tmpdir(), 'import-forget-')), 'history.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** The importer's client: the first import's transaction lands, then `ws` is forgotten, then the others are sent. */
function forgettingAfterFirstImport(ws: string) {
  const send = tables.client.send.bind(tables.client) as (command: unknown) => Promise<unknown>;
  let first: Promise<unknown> | undefined;
  const client = Object.create(tables.client) as typeof tables.client;
  (client as { send: unknown }).send = async (command: unknown) => {
    if (!(command instanceof TransactWriteCommand)) return send(command);
    if (first) {
      await first.catch(() => undefined);
      return send(command);
    }
    first = send(command).then(async (out) => {
      await new DynamoModelWriteStore(tables.client, tables.names.decisions, learning).forget(ws);
      return out;
    });
    return first;
  };
  return client;
}

const examplesHeld = async (ws: string) => {
  const store = new DynamoWorkspaceStore(tables.client, tables.names.decisions, learning);
  const state = await store.loadState(ws);
  return { generation: state.generation, docs: state.model.labels.map((l) => [l.label, l.docs]) };
};

it('a file imported again after a forget in the middle of its first run teaches the new model each example once', async () => {
  const ws = 'ws_import_forget';
  const file = historyFile();
  const { decisions } = tables.names;
  const interrupted = new WorkspaceImporter(forgettingAfterFirstImport(ws), decisions, learning, 'local:test');
  expect((await interrupted.importFile(ws, file)).learned).toBe(EXAMPLES);
  // One chunk landed before the forget and was forgotten; the others were taught to the new model.
  const after = await examplesHeld(ws);
  expect(after.generation).toBe(1);
  expect(after.docs).toHaveLength(1);
  expect(after.docs[0][1]).toBeLessThan(EXAMPLES);

  // The operator runs the file again to teach the new model all of it.
  const again = new WorkspaceImporter(tables.client, decisions, learning, 'local:test');
  const report = await again.importFile(ws, file);
  // It says what it taught (the forgotten chunk) apart from what the first run taught the new model.
  const taughtBefore = Number(after.docs[0][1]);
  expect(report.learned).toBe(EXAMPLES - taughtBefore);
  expect(report.already_learned).toBe(taughtBefore);
  expect(await examplesHeld(ws)).toEqual({ generation: 1, docs: [['customs_hold', EXAMPLES]] });
});
