// Issue 33, finding 11: the README states the size limits the API enforces (an import said 1,000 examples while the
// API and the OpenAPI document take 100). Every "up to N <items>" in the README's routes table is the code's limit.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IMPORT_BODY } from '../../lambdas/http/import-envelope';
import { BATCH_BODY } from '../../lambdas/analyze-batch/batch-envelope';

const readme = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');

/** The README's row for a route, by its path cell. */
const row = (routePath: string) => readme.split('\n').find((line) => line.includes(`| \`${routePath}\` |`)) ?? '';
const upTo = (line: string, items: string) =>
  Number(new RegExp(`up to ([\\d,]+) ${items}`).exec(line)?.[1]?.replace(/,/g, ''));

it('gives the import size the API takes', () => {
  expect(upTo(row('/api/v1/workspaces/{workspace_id}/examples'), 'examples')).toBe(IMPORT_BODY.max);
});

it('gives the batch size the API takes', () => {
  expect(upTo(row('/api/v1/signals/analyze-batch'), 'signals')).toBe(BATCH_BODY.max);
});
