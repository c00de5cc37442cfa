// Online learning with the default workspace cache (30 s): the container that takes a correction decides with it
// at once, from its cached model, without reading the workspace again.
import { call } from '../support/http';
import { useApiWithKey } from '../support/local-api';

const t = useApiWithKey('wsonline', ['ws_on'], { workspaceCacheTtlSeconds: 30 });

it('reflects each correction in the next decision of the same container', async () => {
  const signal = (i: number) => ({
    workspace_id: 'ws_on',
    source: 'email',
    sender: `ops${i}@carrier.example`,
    subject: `Shipment ${i} delayed at customs`,
    body: 'The container is held at customs pending paperwork.',
  });
  const first = await call(t.api.baseUrl, 'POST', '/signals/analyze', { key: t.key, body: signal(0) });
  expect(first.json.category).not.toBe('customs_hold');
  let d = first;
  let corrections = 0;
  while (d.json.category !== 'customs_hold' && corrections < 5) {
    await call(t.api.baseUrl, 'POST', `/decisions/${d.json.decision_id}/feedback`, {
      key: t.key,
      body: { category: 'customs_hold', queue: 'logistics' },
    });
    corrections++;
    d = await call(t.api.baseUrl, 'POST', '/signals/analyze', { key: t.key, body: signal(corrections) });
  }
  expect(d.json).toMatchObject({ category: 'customs_hold', queue: 'logistics' });
  expect(corrections).toBeLessThanOrEqual(5);
});
