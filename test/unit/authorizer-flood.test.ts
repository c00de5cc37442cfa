// 100,000 minted keys against the authorizer's cache. Anyone can mint well-formed keys (the checksum is public
// CRC32), so each one passes the format check and costs a database read; they must never push a key in steady use out
// of the cache. The store here is in memory because the point is the cache, and 100,000 DynamoDB Local round trips
// would take minutes: test/integration/authorizer.test.ts runs the same flood, smaller, against DynamoDB Local.
import { KeyAuthorizer } from '../../lambdas/authorizer/authorize';
import { generateApiKey, hashApiKey, isWellFormedApiKey, keyChecksum } from '../../lambdas/domain/api-key';
import type { AccessStore, KeyRecord, PartnerRecord } from '../../lambdas/domain/ports';

/** Mints a well-formed key the way an attacker would: any 32 base62 characters and the public checksum. */
function mint(i: number): string {
  const body = `sas_live_${i.toString(36).padStart(32, 'Z')}`; // base36 digits never hold 'Z': all distinct
  return body + keyChecksum(body);
}

it('keeps a key in steady use cached while 100,000 minted keys are tried', async () => {
  const real = generateApiKey();
  const key: KeyRecord = {
    key_hash: hashApiKey(real),
    key_id: 'key_real',
    partner_id: 'acme',
    prefix: real.slice(0, 13),
    status: 'active',
    created_at: '2026-01-01T00:00:00Z',
    scopes: ['analyze'],
  };
  const partner: PartnerRecord = { partner_id: 'acme', name: 'Acme', status: 'active', created_at: '', updated_at: '' };
  const reads = { real: 0, other: 0 };
  const store: Pick<AccessStore, 'getKeyByHash' | 'getPartner'> = {
    async getKeyByHash(hash) {
      if (hash === key.key_hash) {
        reads.real++;
        return key;
      }
      reads.other++;
      return undefined;
    },
    async getPartner() {
      return partner;
    },
  };
  const authorizer = new KeyAuthorizer(store, { ttlSeconds: 3_600, isUnavailable: () => false });
  const t0 = Date.parse('2026-11-23T00:00:00Z');
  expect((await authorizer.verify(`Bearer ${real}`, t0)).outcome).toBe('allow');
  for (let i = 0; i < 100_000; i++) {
    const minted = mint(i);
    if (i === 0) expect(isWellFormedApiKey(minted)).toBe(true);
    expect((await authorizer.verify(`Bearer ${minted}`, t0 + i)).outcome).toBe('UNAUTHORIZED');
    // Steady use: the real key every 100 attempts.
    if (i % 100 === 0) expect((await authorizer.verify(`Bearer ${real}`, t0 + i)).outcome).toBe('allow');
  }
  expect(reads).toEqual({ real: 1, other: 100_000 });
});
