// Paging near retention (docs/partners.md, "Listing decisions"): the last decision of a page is the page's oldest, the
// first to expire. Once DynamoDB's TTL sweep deletes it, the next request's `starting_after` names a decision that is
// gone, and every older one is past its retention too: the list has ended. It answered 400 VALIDATION_ERROR naming
// `starting_after` (while the expired decision was still there unswept, the same request answered an empty page).
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulidTime } from '../../lambdas/domain/ids';
import { call, expectError } from '../support/http';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';

jest.setTimeout(60_000);
let api: TestApi;
let key: string;
beforeAll(async () => {
  api = await startTestApi('cursor-ttl');
  ({ key } = await partnerWithKey(api.admin, 'acme', ['ws_ttl']));
}, 60_000);
afterAll(async () => api?.close());

const DAY_MS = 24 * 60 * 60 * 1000;
const RETENTION_DAYS = 90; // DECISION_RETENTION_DAYS's default, which the test API keeps
const page = (cursor: string) =>
  call(api.baseUrl, 'GET', `/decisions?workspace_id=ws_ttl&limit=2&starting_after=${cursor}`, { key });
/** A decision id made `daysAgo` days ago that names no stored decision. */
const idFrom = (daysAgo: number) => `dec_${ulidTime(Date.now() - daysAgo * DAY_MS)}${'0'.repeat(16)}`;

it('a cursor expired but not swept yet: an empty last page', async () => {
  for (let i = 0; i < 3; i++) {
    const body = { workspace_id: 'ws_ttl', source: 'task', subject: `Report ${i}` };
    expect((await call(api.baseUrl, 'POST', '/signals/analyze', { key, body })).status).toBe(200);
  }
  const first = await call(api.baseUrl, 'GET', '/decisions?workspace_id=ws_ttl&limit=2', { key });
  expect(first.json.has_more).toBe(true);
  const cursor = first.json.data[1].decision_id;
  const expired = Math.floor(Date.now() / 1000) - 1;
  for (const d of [...first.json.data, ...(await page(cursor)).json.data])
    await api.tables.client.send(
      new UpdateCommand({
        TableName: api.tables.names.decisions,
        Key: { pk: `decision#${d.decision_id}` },
        UpdateExpression: 'SET expires_at = :past',
        ExpressionAttributeValues: { ':past': expired },
      }),
    );
  expect((await page(cursor)).json).toEqual({ object: 'list', data: [], has_more: false });
});

it('a cursor past its retention, swept: the same empty last page, not a 400', async () => {
  const swept = await page(idFrom(RETENTION_DAYS + 1));
  expect(swept.status).toBe(200);
  expect(swept.json).toEqual({ object: 'list', data: [], has_more: false });
});

it('a cursor within its retention that names no decision of the workspace: still a 400', async () => {
  expectError(await page(idFrom(RETENTION_DAYS - 1)), 400, 'VALIDATION_ERROR');
  expectError(await page(idFrom(0)), 400, 'VALIDATION_ERROR');
});
