// `workspace import` and `workspace forget` as an operator runs them (docs/partners.md, "Importing your history, and
// forgetting it"): the CLI as a real process against DynamoDB Local, over the tables of a service that then decides
// with what was imported over HTTP.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCsv } from '../../lib/admin/workspace-import-file';
import { MAX_IMPORT_FILE_BYTES, progressLine } from '../../lib/admin/workspace-import';
import { adminCliEnv, runAdmin } from '../support/admin-cli';
import { call } from '../support/http';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';

jest.setTimeout(120_000);
let api: TestApi;
let key: string;
let env: NodeJS.ProcessEnv;
const dir = mkdtempSync(join(tmpdir(), 'import-'));

const admin = (...args: string[]) => runAdmin(env, [...args, '--json']);

const labelDocs = async (ws: string) =>
  Object.fromEntries(
    (await api.service.dependencies.workspaceStore.loadState(ws)).model.labels.map((l) => [
      `${l.field}:${l.label}`,
      l.docs,
    ]),
  );

beforeAll(async () => {
  api = await startTestApi('wsimportcli', { workspaceCacheTtlSeconds: 0 });
  ({ key } = await partnerWithKey(api.admin, 'acme', ['ws_cli', 'ws_csv']));
  // Each test imports into a workspace of its own (the CLI needs no grant): what one learns, no other counts.
  env = adminCliEnv(api.tables.names);
}, 60_000);
afterAll(async () => {
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('imports JSON Lines in chunks of 100, reports bad lines by number, and teaches nothing twice when run again', async () => {
  const lines: string[] = [];
  for (let i = 0; i < 230; i++) {
    lines.push(
      JSON.stringify({
        signal: {
          source: 'email',
          sender: `ops${i}@carrier.example`,
          subject: `Shipment ${i} held at customs`,
          body: 'Held pending the import declaration.',
        },
        labels: { category: 'customs_hold', queue: 'logistics' },
      }),
    );
  }
  lines.splice(10, 0, '{not json');
  lines.splice(150, 0, JSON.stringify({ signal: { source: 'email', subject: 'x' } }));
  lines.splice(20, 0, '');
  const file = join(dir, 'history.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);

  const first = await admin('workspace', 'import', '--workspace', 'ws_cli', '--file', file);
  // Lines not imported: exit 1, so a script sees that the file was not imported whole.
  expect(first.code).toBe(1);
  expect(first.json).toEqual({
    workspace_id: 'ws_cli',
    examples: 232,
    learned: 230,
    already_learned: 0,
    errors: [
      { line: 11, code: 'INVALID_JSON', message: expect.any(String) },
      { line: 152, code: 'VALIDATION_ERROR', message: 'labels is required' },
    ],
    warnings: [],
  });
  expect(await labelDocs('ws_cli')).toEqual({ 'category:customs_hold': 230, 'queue:logistics': 230 });
  // The same file again (after an interruption, say): every chunk is answered from its record, and the report says
  // that it taught nothing this time.
  const again = await admin('workspace', 'import', '--workspace', 'ws_cli', '--file', file);
  expect(again.json).toEqual({ ...first.json, learned: 0, already_learned: 230 });
  // As text, the lines in error come with how to teach them: a file of those lines only (an edited copy of this one
  // is a new file, whose other lines would be taught again).
  const text = await runAdmin(env, ['workspace', 'import', '--workspace', 'ws_cli', '--file', file]);
  expect(text.stdout).toMatch(/0 of 232 examples learned \(and 230 by an earlier run of this file, not taught twice\)/);
  expect(text.stdout).toMatch(/line 11: INVALID_JSON/);
  expect(text.stdout).toMatch(/import a file of those lines only/);
  expect(await labelDocs('ws_cli')).toEqual({ 'category:customs_hold': 230, 'queue:logistics': 230 });

  const d = await call(api.baseUrl, 'POST', '/signals/analyze', {
    key,
    body: {
      workspace_id: 'ws_cli',
      source: 'email',
      sender: 'ops999@carrier.example',
      subject: 'Shipment 999 held at customs',
      body: 'Held pending the import declaration.',
    },
  });
  expect(d.json).toMatchObject({ category: 'customs_hold', queue: 'logistics' });

  const forgot = await admin('workspace', 'forget', '--workspace', 'ws_cli');
  expect(forgot.json).toEqual({ workspace_id: 'ws_cli', forgotten: true });
  expect(await labelDocs('ws_cli')).toEqual({});
});

it('imports CSV with a header, quoted fields over several lines, and email as the default source', async () => {
  const csv = [
    'subject,body,sender,category,queue',
    '"Invoice 1 overdue","Please pay,',
    'thanks",billing@supplier.example,supplier_invoice,accounts_payable',
    'Invoice 2 overdue,Pay it,billing@supplier.example,supplier_invoice,',
    'too,few',
    'Invoice 3,Pay,billing@supplier.example,,',
  ].join('\r\n');
  const file = join(dir, 'history.csv');
  writeFileSync(file, csv);
  const out = await admin('workspace', 'import', '--workspace', 'ws_csv', '--file', file);
  expect(out.json).toEqual({
    workspace_id: 'ws_csv',
    examples: 4,
    learned: 2,
    already_learned: 0,
    errors: [
      { line: 5, code: 'VALIDATION_ERROR', message: 'has 2 fields where the header has 5' },
      { line: 6, code: 'VALIDATION_ERROR', message: expect.stringMatching(/^labels/) },
    ],
    warnings: [],
  });
  expect(await labelDocs('ws_csv')).toEqual({ 'category:supplier_invoice': 2, 'queue:accounts_payable': 1 });
  expect(parseCsv(csv).records[0]).toEqual({
    line: 2,
    example: {
      signal: {
        source: 'email',
        subject: 'Invoice 1 overdue',
        body: 'Please pay,\r\nthanks',
        sender: 'billing@supplier.example',
      },
      labels: { category: 'supplier_invoice', queue: 'accounts_payable' },
    },
  });
});

it('imports a CSV with columns it does not know, warning of them, and exits 0 when every line was imported', async () => {
  // An export's own columns (its id, notes) are read past: before, they were an error and the run exited 1.
  const csv = ['workspace_id,subject,body,category,notes', 'ws_x,Invoice 8 overdue,Pay it,billing,called twice'];
  const file = join(dir, 'export.csv');
  writeFileSync(file, `${csv.join('\n')}\n`);
  const out = await admin('workspace', 'import', '--workspace', 'ws_csv_columns', '--file', file);
  expect(out.code).toBe(0);
  expect(out.json).toEqual({
    workspace_id: 'ws_csv_columns',
    examples: 1,
    learned: 1,
    already_learned: 0,
    errors: [],
    warnings: [{ line: 1, message: 'unknown column(s) workspace_id, notes (ignored)' }],
  });
  const text = await runAdmin(env, ['workspace', 'import', '--workspace', 'ws_csv_columns', '--file', file]);
  expect(text.code).toBe(0);
  expect(text.stdout).toMatch(/0 error\(s\)\n {2}line 1: warning: unknown column\(s\) workspace_id, notes \(ignored\)/);
});

it('refuses a missing file or workspace with a clear error', async () => {
  const missing = await admin('workspace', 'import', '--workspace', 'ws_missing', '--file', join(dir, 'nope.jsonl'));
  expect(missing.code).not.toBe(0);
  expect(missing.stderr).toMatch(/cannot read/);
  const bad = await admin('workspace', 'forget', '--workspace', 'bad id');
  expect(bad.code).not.toBe(0);
  expect(bad.stderr).toMatch(/--workspace/);
  // Read whole, a file this large took gigabytes, and one of 512 MB or more could not be read at all: refused by its
  // size (a sparse file: no disk is written).
  const huge = join(dir, 'huge.jsonl');
  writeFileSync(huge, '');
  truncateSync(huge, MAX_IMPORT_FILE_BYTES + 1);
  const tooLarge = await admin('workspace', 'import', '--workspace', 'ws_missing', '--file', huge);
  expect(tooLarge.code).not.toBe(0);
  expect(tooLarge.stderr).toMatch(/is 257 MB; files up to 256 MB are imported: split it/);
});

it('reads a relative --file from the directory the operator typed `npm run admin` in, not the repository', async () => {
  writeFileSync(
    join(dir, 'mine.jsonl'),
    JSON.stringify({ signal: { source: 'email', subject: 'Invoice 7 overdue' }, labels: { category: 'billing' } }),
  );
  const args = ['workspace', 'import', '--workspace', 'ws_relative', '--file', 'mine.jsonl', '--json'];
  // npm runs the script from the package's root and says where it was typed in INIT_CWD.
  const out = await runAdmin({ ...env, INIT_CWD: dir, npm_lifecycle_event: 'admin' }, args);
  expect(out.code).toBe(0);
  expect(out.json).toMatchObject({ examples: 1, learned: 1, errors: [] });
  // Started by another script, the CLI inherits that script's INIT_CWD: its current directory counts instead.
  const other = await runAdmin({ ...env, INIT_CWD: dir, npm_lifecycle_event: 'seed' }, args);
  expect(other.code).not.toBe(0);
  expect(other.stderr).toContain(`cannot read ${join(__dirname, '..', '..', 'mine.jsonl')}`);
});

it('shows examples done, rate and time left', () => {
  expect(progressLine({ done: 500, total: 10_000, elapsedMs: 5_000 })).toBe(
    'imported 500/10000 examples  100/s  1m35s left',
  );
  expect(progressLine({ done: 10_000, total: 10_000, elapsedMs: 50_000 })).toBe(
    'imported 10000/10000 examples  200/s  done',
  );
});
