// Online learning with the default workspace cache (30 s): the container that takes a correction decides with it
// at once, from its cached model, without reading the workspace again.
import { call } from '../support/http';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await startTestApi('wsonline', { workspaceCacheTtlSeconds: 30 });
  ({ key } = await partnerWithKey(api.admin, 'acme', ['ws_on']));
}, 60_000);
afterAll(async () => api?.close());

it('reflects each correction in the next decision of the same container', async () => {
  const signal = (i: number) => ({
    workspace_id: 'ws_on',
    source: 'email',
    sender: `ops${i}@carrier.example`,
    subject: `Shipment ${i} delayed at customs`,
    body: 'The container is held at customs pending paperwork.',
  });
  const first = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal(0) });
  expect(first.json.category).not.toBe('customs_hold');
  let d = first;
  let corrections = 0;
  while (d.json.category !== 'customs_hold' && corrections < 5) {
    await call(api.baseUrl, 'POST', `/decisions/${d.json.decision_id}/feedback`, {
      key,
      body: { category: 'customs_hold', queue: 'logistics' },
    });
    corrections++;
    d = await call(api.baseUrl, 'POST', '/signals/analyze', { key, body: signal(corrections) });
  }
  expect(d.json).toMatchObject({ category: 'customs_hold', queue: 'logistics' });
  expect(corrections).toBeLessThanOrEqual(5);
});
