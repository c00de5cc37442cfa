// The admin import's file reader (lib/admin/workspace-import-file.ts): one bad line is reported by its number and
// skipped, and the rest of the file is read (README, Admin CLI: "a malformed line is reported ... the rest is imported").
import { parseImportFile } from '../../lib/admin/workspace-import-file';

const csv = [
  'subject,category',
  'Refund for order 1,refund',
  '"Refund for order 2,refund',
  'Refund for order 3,refund',
  'Card declined,card_declined',
].join('\n');

it('reads on after a quote never closed in a CSV file, reporting that row', () => {
  // Before, the open quote swallowed every row after it: one example read, the other rows gone without a word.
  const parsed = parseImportFile(csv, 'history.csv');
  expect(parsed.records.map((r) => [r.line, (r.example as { labels: Record<string, string> }).labels])).toEqual([
    [2, { category: 'refund' }],
    [4, { category: 'refund' }],
    [5, { category: 'card_declined' }],
  ]);
  expect(parsed.problems).toEqual([expect.objectContaining({ line: 3, code: 'INVALID_CSV' })]);
  expect(parsed.examples).toBe(4);
});

it('reads a .jsonl file as JSON Lines even when its first line is broken', () => {
  // Before, a first line not starting with `{` made the whole file CSV: nothing was learned.
  const text = [
    'subject": "broken"}',
    JSON.stringify({ signal: { source: 'email', subject: 'Refund' }, labels: { category: 'refund' } }),
  ].join('\n');
  const parsed = parseImportFile(text, 'history.jsonl');
  expect(parsed.records).toEqual([expect.objectContaining({ line: 2 })]);
  expect(parsed.problems).toEqual([expect.objectContaining({ line: 1, code: 'INVALID_JSON' })]);
  // Without a telling name, the first character still decides.
  expect(parseImportFile(text, 'history.txt').problems[0].code).not.toBe('INVALID_JSON');
});

it('refuses a CSV file without its header, repeating none of the first example it read as one', () => {
  // Before, the first example's subject, body and sender were printed as "unknown column(s) ..." names.
  const csv = [
    'Wire transfer today,my password is hunter2,jane.roe@example.com,billing,high',
    'Refund,Please,,refund,low',
  ];
  const parsed = parseImportFile(csv.join('\n'), 'history.csv');
  expect(parsed.records).toEqual([]);
  expect(parsed.warnings).toEqual([]);
  expect(parsed.problems).toEqual([
    {
      line: 1,
      code: 'INVALID_CSV',
      message:
        'this is not a header: it names none of the columns subject, body, sender, source, received_at, priority, ' +
        'recommended_action, category, queue',
    },
  ]);
  expect(parsed.examples).toBe(2);
  // A header with a column it does not know names one that does not read as a name by its place, never by its text.
  const long = 'x'.repeat(41);
  expect(parseImportFile(`subject,notes,${long},alice@example.com\nHello,a,b,c\n`, 'h.csv').warnings).toEqual([
    { line: 1, message: 'unknown column(s) notes, column 3, column 4 (ignored)' },
  ]);
});
