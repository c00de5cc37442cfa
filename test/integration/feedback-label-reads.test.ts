// Feedback naming labels new to the workspace reads each field's label set once (docs/operations.md, "Worst-case
// work per request"): it read every set twice when two or more fields were new (a check of all, then each again to
// write), up to 11 reads and 127 read units for one feedback in a cost review. Over HTTP on DynamoDB Local, the label
// set reads counted at the client.
import { useApiWithKey } from '../support/local-api';
import { call } from '../support/http';

jest.setTimeout(120_000);

const t = useApiWithKey('fb-label-reads', ['ws_labels']);
let labelSetReads = 0;
let labelSetWrites = 0;

beforeAll(() => {
  t.api.service.dependencies.client.middlewareStack.add(
    (next, context) => async (args) => {
      const sk = (args.input as { Key?: { sk?: string } }).Key?.sk;
      if (sk?.startsWith('l#') && context.commandName === 'GetItemCommand') labelSetReads++;
      if (sk?.startsWith('l#') && context.commandName === 'UpdateItemCommand') labelSetWrites++;
      return next(args);
    },
    { step: 'initialize', name: 'countLabelSets' },
  );
});

it('reads each label set once for feedback naming new labels in four fields, and writes each once', async () => {
  const decided = await call(t.api.baseUrl, 'POST', '/signals/analyze', {
    key: t.key,
    body: { workspace_id: 'ws_labels', source: 'email', subject: 'Invoice 4471 is overdue', sender: 'ap@x.example' },
  });
  expect(decided.status).toBe(200);
  const feedback = {
    priority: 'low',
    recommended_action: 'archive',
    category: 'supplier_invoice',
    queue: 'accounts_payable',
  };
  const answer = await call(t.api.baseUrl, 'POST', `/decisions/${decided.json.decision_id}/feedback`, {
    key: t.key,
    body: feedback,
  });
  expect(answer.status).toBe(200);
  expect(labelSetReads).toBe(4);
  expect(labelSetWrites).toBe(4);
});
