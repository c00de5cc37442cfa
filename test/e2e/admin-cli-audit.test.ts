// The audit log (docs/operations.md, "Audit log") as an operator sees it: real admin CLI processes and the local API
// over a real socket, on DynamoDB Local. Every change leaves its event, a refused change leaves none, and no event
// holds a secret.
import { type AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { hashApiKey } from '../../lambdas/domain/api-key';
import { AUDIT_EVENT_ID_PATTERN } from '../../lambdas/domain/audit';
import { call, expectError } from '../support/http';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';
import { testEndpoint } from '../support/dynamodb';
import { type AdminResult, adminCliEnv, runAdmin, argv } from '../support/admin-cli';

jest.setTimeout(300_000);

const me = `local:${userInfo().username}`;
let api: TestApi;
let env: NodeJS.ProcessEnv;
let dir: string;
/** Every plaintext key any command printed: none may appear in the log, nor its hash. */
const issuedKeys: string[] = [];

async function admin(...args: string[]): Promise<AdminResult> {
  const out = await runAdmin(env, args);
  if (typeof out.json?.key === 'string') issuedKeys.push(out.json.key);
  return out;
}

const events = async (...filters: string[]) => {
  const out = await admin('audit', 'list', '--json', '--limit', '1000', ...filters);
  expect(out.code).toBe(0);
  return out.json.events as any[];
};

beforeAll(async () => {
  api = await startTestApi('audit', { workspaceCacheTtlSeconds: 0 });
  dir = await mkdtemp(join(tmpdir(), 'sas-audit-'));
  env = adminCliEnv(api.tables.names);
}, 60_000);
afterAll(async () => {
  try {
    if (api) await expectNoSecretStored();
  } finally {
    await api?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  }
});

/**
 * The log never holds a key, a key hash or a display prefix: every key the file's tests issued, checked in afterAll,
 * after every test whatever order jest ran them in (--randomize). As a test of its own, it checked the keys of the
 * tests jest had run before it, and found too few when it ran first. A failure fails the file; a run filtered with
 * `-t` issues fewer keys and events than the minimums below, which then fail: run the whole file.
 */
async function expectNoSecretStored(): Promise<void> {
  const scan = await api.tables.client.send(new ScanCommand({ TableName: api.tables.names.decisions }));
  const items = (scan.Items ?? []).filter((i) => String(i.pk).startsWith('audit#'));
  expect(items.length).toBeGreaterThan(15);
  const stored = JSON.stringify(items);
  expect(issuedKeys.length).toBeGreaterThanOrEqual(3);
  for (const key of issuedKeys) {
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(hashApiKey(key));
    expect(stored).not.toContain(key.slice(0, 13));
  }
  for (const item of items) expect(item.expires_at).toBe(Math.floor(Date.parse(item.at) / 1000) + 400 * 86_400);
}

// Each test makes the partners, keys and workspaces it reads events of (acme, umbrella, globex, initrode, vandelay,
// hooli, initech; skewed-clock is one no test makes), so it passes whichever tests ran before it.

it('records each admin command as one event, newest first, with the changed fields only', async () => {
  const since = new Date().toISOString(); // this test's events only
  expect((await admin('partner', 'create', '--id', 'acme', '--name', 'Acme', '--json')).code).toBe(0);
  expect((await admin('partner', 'set-status', '--id', 'acme', '--status', 'suspended', '--json')).code).toBe(0);
  const created = await admin(
    ...argv(
      'key create --partner acme --workspace ws_a --workspace ws_b --rate-limit 10/m --description billing --json',
    ),
  );
  expect(created.code).toBe(0);
  const keyId = created.json.key_id;
  expect((await admin('key', 'grant', '--key-id', keyId, '--workspace', 'ws_c', '--json')).code).toBe(0);
  expect((await admin('key', 'ungrant', '--key-id', keyId, '--workspace', 'ws_b', '--json')).code).toBe(0);
  expect((await admin('key', 'set-rate-limit', '--key-id', keyId, '--limit', '20/m', '--json')).code).toBe(0);
  const rotated = await admin('key', 'rotate', '--key-id', keyId, '--grace-seconds', '60', '--json');
  expect(rotated.code).toBe(0);
  const newKeyId = rotated.json.key_id;
  expect((await admin('key', 'revoke', '--key-id', newKeyId, '--json')).code).toBe(0);
  const policyFile = join(dir, 'policy.json');
  await writeFile(policyFile, JSON.stringify({ vip_senders: ['@acme.com'], thresholds: { critical: 90 } }));
  expect((await admin('workspace', 'policy', 'set', '--workspace', 'ws_a', '--file', policyFile, '--json')).code).toBe(
    0,
  );

  const log = await events('--since', since);
  expect(log.map((e) => e.action)).toEqual([
    'policy.put',
    'key.revoke',
    'key.rotate',
    'key.grant', // the new key's grants, written before it
    'key.set_rate_limit',
    'key.ungrant',
    'key.grant',
    'key.create',
    'key.grant', // the created key's grants, written before it
    'partner.set_status',
    'partner.create',
  ]);
  for (const e of log) {
    expect(Object.keys(e).sort()).toEqual(['action', 'actor', 'after', 'at', 'before', 'event_id', 'target']);
    expect(e.event_id).toMatch(AUDIT_EVENT_ID_PATTERN);
    expect(e.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(e.actor).toBe(me);
  }
  const [policy, revoke, rotate, newGrants, rate, ungrant, grant, create, createGrants, status, partner] = log;
  expect(partner).toMatchObject({
    target: { partner_id: 'acme' },
    before: null,
    after: { name: 'Acme', status: 'active' },
  });
  expect(status).toMatchObject({
    target: { partner_id: 'acme' },
    before: { status: 'active' },
    after: { status: 'suspended' },
  });
  expect(createGrants).toMatchObject({
    target: { partner_id: 'acme', key_id: keyId },
    before: null,
    after: { grants: ['ws_a', 'ws_b'] },
  });
  expect(create).toEqual(
    expect.objectContaining({
      target: { partner_id: 'acme', key_id: keyId },
      before: null,
      after: {
        status: 'active',
        scopes: ['analyze', 'read', 'feedback', 'policy'],
        rate_limit: { limit: 10, window_seconds: 60 },
        expires_at: null,
        description: 'billing',
      },
    }),
  );
  expect(grant).toMatchObject({ target: { key_id: keyId }, before: null, after: { grants: ['ws_c'] } });
  expect(ungrant).toMatchObject({ target: { key_id: keyId }, before: { grants: ['ws_b'] }, after: null });
  expect(rate).toMatchObject({
    before: { rate_limit: { limit: 10, window_seconds: 60 } },
    after: { rate_limit: { limit: 20, window_seconds: 60 } },
  });
  expect(newGrants).toMatchObject({ target: { key_id: newKeyId }, after: { grants: ['ws_a', 'ws_c'] } });
  expect(rotate).toMatchObject({
    target: { partner_id: 'acme', key_id: keyId },
    before: { expires_at: null },
    after: {
      expires_at: rotated.json.old_key_expires_at,
      new_key_id: newKeyId,
      new_key_settings: expect.objectContaining({ rate_limit: { limit: 20, window_seconds: 60 } }),
    },
  });
  expect(revoke).toMatchObject({
    target: { key_id: newKeyId },
    before: { status: 'active' },
    after: { status: 'revoked' },
  });
  expect(policy).toMatchObject({
    target: { workspace_id: 'ws_a' },
    before: { vip_senders: null, thresholds: null, version: 0 },
    after: { vip_senders: ['@acme.com'], thresholds: { critical: 90 }, version: 1 },
  });
});

it('leaves no event for a change that is refused or fails', async () => {
  // A suspended partner, an active key and a revoked one, of its own.
  expect((await admin('partner', 'create', '--id', 'umbrella', '--name', 'Umbrella', '--json')).code).toBe(0);
  expect((await admin('partner', 'set-status', '--id', 'umbrella', '--status', 'suspended', '--json')).code).toBe(0);
  const keyId = (await admin(...argv('key create --partner umbrella --workspace ws_umbrella --json'))).json.key_id;
  const newKeyId = (await admin('key', 'rotate', '--key-id', keyId, '--grace-seconds', '60', '--json')).json.key_id;
  expect((await admin('key', 'revoke', '--key-id', newKeyId, '--json')).code).toBe(0);
  const before = (await events()).length;
  const badPolicy = join(dir, 'bad-policy.json');
  await writeFile(badPolicy, JSON.stringify({ thresholds: { critical: 10, high: 60 } }));
  const refused = [
    await admin('partner', 'create', '--id', 'umbrella', '--name', 'Again', '--json'), // exists: the transaction's condition fails
    await admin('partner', 'set-status', '--id', 'umbrella', '--status', 'bogus', '--json'),
    await admin('partner', 'set-status', '--id', 'nobody', '--status', 'active', '--json'),
    await admin('key', 'create', '--partner', 'nobody', '--workspace', 'ws_a', '--json'),
    await admin(...argv('key create --partner umbrella --workspace ws_umbrella --expires-at tomorrow --json')),
    await admin('key', 'grant', '--key-id', 'key_nope', '--workspace', 'ws_a', '--json'),
    await admin('key', 'set-rate-limit', '--key-id', keyId, '--limit', 'lots', '--json'),
    await admin('key', 'rotate', '--key-id', newKeyId, '--json'), // revoked: cannot rotate
    await admin('key', 'revoke', '--key-id', 'key_nope', '--json'),
    await admin('workspace', 'policy', 'set', '--workspace', 'ws_umbrella', '--file', badPolicy, '--json'),
  ];
  for (const r of refused) expect(r.code).not.toBe(0);
  // Changing nothing is no change either.
  expect((await admin('key', 'revoke', '--key-id', newKeyId, '--json')).code).toBe(0);
  expect((await admin('partner', 'set-status', '--id', 'umbrella', '--status', 'suspended', '--json')).code).toBe(0);
  expect(await events()).toHaveLength(before);
});

it("records the API's PUT policy with actor key:<key_id>, and none for a refused one", async () => {
  const { key, keyId: apiKeyId } = await partnerWithKey(api.admin, 'globex', ['ws_api']);
  issuedKeys.push(key);
  const put = await call(api.baseUrl, 'PUT', '/workspaces/ws_api/policy', { key, body: { learning: false } });
  expect(put.status).toBe(200);
  expectError(
    await call(api.baseUrl, 'PUT', '/workspaces/ws_api/policy', {
      key,
      body: { learning: true },
      headers: { 'if-match': '"0"' },
    }),
    412,
    'PRECONDITION_FAILED',
  );
  expectError(
    await call(api.baseUrl, 'PUT', '/workspaces/ws_api/policy', { key, body: { learning: 'yes' } }),
    400,
    'VALIDATION_ERROR',
  );
  // A policy holding an API key is refused as bad input (never a 5xx), and leaves nothing.
  const leaky = await call(api.baseUrl, 'PUT', '/workspaces/ws_api/policy', {
    key,
    body: { keywords: [{ phrase: `leak ${key}`.slice(0, 100), weight: 1 }] },
  });
  expectError(leaky, 400, 'VALIDATION_ERROR');
  expect(leaky.text).not.toContain(key);

  const onWorkspace = await events('--workspace', 'ws_api');
  expect(onWorkspace).toEqual([
    expect.objectContaining({
      actor: `key:${apiKeyId}`,
      action: 'policy.put',
      target: { workspace_id: 'ws_api', partner_id: 'globex' },
      before: { learning: null, version: 0 },
      after: { learning: false, version: 1 },
    }),
  ]);
  // --key-id: the events on the key (its creation, its grants) and the events made with it (the PUT).
  expect((await events('--key-id', apiKeyId)).map((e) => e.action)).toEqual(['policy.put', 'key.create', 'key.grant']);
  // --partner: a partner's keys' changes are among its events, as an import's and a model reset's are.
  expect((await events('--partner', 'globex')).map((e) => e.action)).toContain('policy.put');
});

it('filters by partner, workspace and time, and limits newest first', async () => {
  // Events of its own to filter: a partner, its key rotated (the new key revoked), a workspace's policy.
  expect((await admin('partner', 'create', '--id', 'initrode', '--name', 'Initrode', '--json')).code).toBe(0);
  const keyId = (await admin(...argv('key create --partner initrode --workspace ws_initrode --json'))).json.key_id;
  const newKeyId = (await admin('key', 'rotate', '--key-id', keyId, '--grace-seconds', '60', '--json')).json.key_id;
  expect((await admin('key', 'revoke', '--key-id', newKeyId, '--json')).code).toBe(0);
  const policyFile = join(dir, 'initrode-policy.json');
  await writeFile(policyFile, JSON.stringify({ vip_senders: ['@initrode.com'] }));
  const policySet = await admin(...argv('workspace policy set --workspace ws_initrode --json'), '--file', policyFile);
  expect(policySet.code).toBe(0);

  const all = await events();
  expect(all.map((e) => e.event_id)).toEqual([...all.map((e) => e.event_id)].sort().reverse());
  expect(all.map((e) => e.at)).toEqual([...all.map((e) => e.at)].sort().reverse());

  const initrode = await events('--partner', 'initrode');
  expect(initrode.length).toBeGreaterThan(0);
  expect(initrode.every((e) => e.target.partner_id === 'initrode')).toBe(true);
  expect(initrode).toEqual(all.filter((e) => e.target.partner_id === 'initrode'));
  expect(await events('--partner', 'initrode', '--workspace', 'ws_initrode')).toEqual([]);
  expect(await events('--workspace', 'ws_initrode')).toEqual(
    all.filter((e) => e.target.workspace_id === 'ws_initrode'),
  );
  expect(await events('--key-id', newKeyId)).toEqual(all.filter((e) => e.target.key_id === newKeyId));

  const limited = await admin('audit', 'list', '--limit', '2', '--json');
  expect(limited.json.events).toEqual(all.slice(0, 2));
  const since = all[3].at;
  expect(await events('--since', since)).toEqual(all.filter((e) => e.at >= since));
  expect(await events('--since', '2999-01-01T00:00:00Z')).toEqual([]);

  const text = await admin('audit', 'list', '--limit', '1');
  expect(text.stdout).toContain(all[0].action);
  for (const bad of [
    ['--since', 'yesterday'],
    ['--limit', '0'],
    ['--limit', 'ten'],
  ]) {
    const out = await admin('audit', 'list', ...bad);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/^error: (malformed date|--limit must)/m);
  }
});

it('refuses a filter no event can match instead of listing nothing, which reads as "no changes"', async () => {
  expect((await admin('partner', 'create', '--id', 'vandelay', '--name', 'Vandelay', '--json')).code).toBe(0);
  const { key } = (await admin(...argv('key create --partner vandelay --workspace ws_vandelay --json'))).json;
  expect(key).toEqual(expect.any(String));
  for (const [bad, error] of [
    [['--partner', 'nobody'], /^error: unknown partner nobody$/m],
    [['--partner', 'bad partner!'], /^error: bad partner id "bad partner!"/m],
    [['--workspace', 'bad ws!'], /^error: --workspace must be 1 to 128 characters/m],
    [['--workspace', 'acme:*'], /^error: --workspace takes a workspace id, not a prefix/m],
    [['--key-id', 'key_nonexistent'], /^error: --key-id must be a key_id/m],
    [['--key-id', key], /^error: --key-id must be a key_id/m],
  ] as const) {
    const out = await admin('audit', 'list', ...bad, '--json');
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(error);
    expect(out.json.events).toBeUndefined();
    expect(out.stdout).not.toContain(key); // a secret pasted as --key-id is not printed back
  }
  // Well-formed but never issued (or deleted): the log may hold a gone key's events, so this is an empty listing.
  expect(await events('--key-id', 'key_00000000000000000000000000')).toEqual([]);
  expect(await events('--workspace', 'ws_never_used')).toEqual([]);
});

it('keeps two concurrent changes of one key as two events, each with what it saw', async () => {
  // A key of its own at 20/m, and a workspace of its own whose policy is at version 1.
  expect((await admin('partner', 'create', '--id', 'hooli', '--name', 'Hooli', '--json')).code).toBe(0);
  const created = await admin(...argv('key create --partner hooli --workspace ws_hooli --rate-limit 20/m --json'));
  expect(created.code).toBe(0);
  const { key_id: keyId, key: policyKey } = created.json;
  const first = await call(api.baseUrl, 'PUT', '/workspaces/ws_hooli/policy', {
    key: policyKey,
    body: { learning: false },
  });
  expect(first.status).toBe(200);

  const [a, b] = await Promise.all([
    admin('key', 'set-rate-limit', '--key-id', keyId, '--limit', '30/m', '--json'),
    admin('key', 'set-rate-limit', '--key-id', keyId, '--limit', '40/h', '--json'),
  ]);
  expect([a.code, b.code]).toEqual([0, 0]);
  const changes = (await events('--key-id', keyId)).filter((e) => e.action === 'key.set_rate_limit').slice(0, 2);
  // Serialized by the condition on what each read: the later one's "before" is the earlier one's "after".
  const earlier = changes.find((e) => e.before.rate_limit.limit === 20);
  const last = changes.find((e) => e !== earlier);
  expect(last.before).toEqual(earlier.after);
  expect(new Set(changes.map((e) => e.after.rate_limit.limit))).toEqual(new Set([30, 40]));

  const puts = await Promise.all(
    [1, 2, 3].map((n) =>
      call(api.baseUrl, 'PUT', '/workspaces/ws_hooli/policy', {
        key: policyKey,
        body: { thresholds: { critical: 90 - n } },
      }),
    ),
  );
  expect(puts.map((p) => p.status)).toEqual([200, 200, 200]);
  // Each PUT its own event, each from the version it replaced (events of one millisecond may list in any order).
  const versions = (await events('--workspace', 'ws_hooli'))
    .filter((e) => e.after.version > 1)
    .map((e) => [e.before.version, e.after.version]);
  expect(versions.sort()).toEqual([
    [1, 2],
    [2, 3],
    [3, 4],
  ]);
});

/**
 * A stand-in for STS (the only part of AWS this machine cannot reach), answering GetCallerIdentity over a real socket as
 * STS does, its `Date` header `clockOffsetMs` from this machine's clock (a skewed clock is a fault this machine cannot
 * cause for one process); the tables are DynamoDB Local's, reached through the SDK's endpoint override.
 */
async function withStandInSts(arn: string, clockOffsetMs: number, run: (actions: string[]) => Promise<void>) {
  const actions: string[] = [];
  const sts = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      actions.push(new URLSearchParams(body).get('Action') ?? '');
      res.writeHead(200, { 'content-type': 'text/xml', date: new Date(Date.now() + clockOffsetMs).toUTCString() });
      res.end(
        `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult>` +
          `<Arn>${arn}</Arn><UserId>AROAEXAMPLE:ann</UserId><Account>123456789012</Account></GetCallerIdentityResult>` +
          `<ResponseMetadata><RequestId>r1</RequestId></ResponseMetadata></GetCallerIdentityResponse>`,
      );
    });
  });
  await new Promise<void>((ok) => sts.listen(0, '127.0.0.1', ok));
  const saved = env;
  try {
    env = {
      ...saved,
      AWS_ENDPOINT_URL_STS: `http://127.0.0.1:${(sts.address() as AddressInfo).port}`,
      AWS_ENDPOINT_URL_DYNAMODB: testEndpoint(),
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_REGION: 'us-east-1',
      AWS_PROFILE: '',
    };
    await run(actions);
  } finally {
    env = saved;
    await new Promise((done) => sts.close(done));
  }
}

it('names the caller by its AWS principal ARN with --aws', async () => {
  const arn = 'arn:aws:sts::123456789012:assumed-role/Operators/ann';
  await withStandInSts(arn, 0, async (actions) => {
    const out = await admin('partner', 'create', '--id', 'initech', '--name', 'Initech', '--aws', '--json');
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(await events('--aws', '--partner', 'initech')).toEqual([
      expect.objectContaining({ action: 'partner.create', actor: arn }),
    ]);
    expect(actions).toEqual(['GetCallerIdentity']); // audit list changes nothing: no STS call
  });
});

it("refuses to change anything with --aws from a machine whose clock is off AWS's by seconds", async () => {
  // A workspace's learning is ordered by its writers' clocks (docs/learning.md): a laptop a minute behind wrote entries
  // the containers had already read past, and a fold a minute ahead put the mark past every container's next entries.
  await withStandInSts('arn:aws:sts::123456789012:assumed-role/Operators/bob', 60_000, async () => {
    const out = await admin('partner', 'create', '--id', 'skewed-clock', '--name', 'Skewed Clock', '--aws');
    expect(out.code).not.toBe(0);
    expect(out.stderr).toMatch(/clock is at least 5\d s behind AWS's.*Synchronize the clock/);
    // Nothing changed: no partner (a filter by an unknown partner is refused as such) and so no event.
    expect((await admin('audit', 'list', '--aws', '--partner', 'skewed-clock')).stderr).toMatch(/unknown partner/);
  });
});
