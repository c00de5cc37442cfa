// Admin use cases (partners and keys), shared by the admin CLI and local mode's demo seeding. Plaintext keys are
// returned once, from createKey/rotateKey, and never stored: the store only ever sees the SHA-256.
import {
  type KeyEnvironment,
  KEY_ENVIRONMENTS,
  displayPrefix,
  generateApiKey,
  hashApiKey,
} from '../lambdas/domain/api-key';
import { newKeyId } from '../lambdas/domain/ids';
import { WORKSPACE_ID_PATTERN, parseRfc3339 } from '../lambdas/analyze/signal-schema';
import {
  type AccessStore,
  type KeyRecord,
  NotFoundError,
  PARTNER_STATUSES,
  type PartnerRecord,
  type PartnerStatus,
} from '../lambdas/domain/ports';

/** Bad input from the operator: the CLI prints the message and exits non-zero. */
export class AdminInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminInputError';
  }
}

export const PARTNER_ID_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;
export const DEFAULT_ROTATION_GRACE_SECONDS = 86_400;

export interface IssuedKey {
  key: string;
  key_id: string;
  partner_id: string;
  workspaces: string[];
  expires_at: string | null;
}

export interface KeySummary {
  key_id: string;
  prefix: string;
  status: string;
  workspaces: string[];
  expires_at: string | null;
  created_at: string;
  description?: string;
}

function assertPartnerStatus(status: string): PartnerStatus {
  if (!(PARTNER_STATUSES as readonly string[]).includes(status)) {
    throw new AdminInputError(`bad status "${status}": use one of ${PARTNER_STATUSES.join(', ')}`);
  }
  return status as PartnerStatus;
}

function assertWorkspaces(workspaces: string[]): string[] {
  if (workspaces.length === 0) throw new AdminInputError('give at least one --workspace');
  for (const ws of workspaces) {
    if (!WORKSPACE_ID_PATTERN.test(ws)) {
      throw new AdminInputError(`bad workspace "${ws}": 1 to 128 characters of A-Z a-z 0-9 . _ : -`);
    }
  }
  return [...new Set(workspaces)];
}

function normalizeExpiry(expiresAt: string | undefined): string | undefined {
  if (expiresAt === undefined) return undefined;
  const ms = parseRfc3339(expiresAt);
  if (ms === undefined) throw new AdminInputError(`malformed date "${expiresAt}": use ISO 8601, e.g. 2027-01-31T00:00:00Z`);
  return new Date(ms).toISOString();
}

const summary = (k: KeyRecord): KeySummary => ({
  key_id: k.key_id,
  prefix: k.prefix,
  status: k.status,
  workspaces: k.workspaces,
  expires_at: k.expires_at ?? null,
  created_at: k.created_at,
  ...(k.description ? { description: k.description } : {}),
});

export class AdminService {
  constructor(
    private readonly store: AccessStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async createPartner(input: { id: string; name: string; status?: string }): Promise<PartnerRecord> {
    if (!PARTNER_ID_PATTERN.test(input.id)) {
      throw new AdminInputError(`bad partner id "${input.id}": 1 to 64 characters of A-Z a-z 0-9 . _ : -`);
    }
    if (!input.name.trim()) throw new AdminInputError('--name must not be blank');
    const at = this.now().toISOString();
    const partner: PartnerRecord = {
      partner_id: input.id,
      name: input.name,
      status: assertPartnerStatus(input.status ?? 'active'),
      created_at: at,
      updated_at: at,
    };
    await this.store.createPartner(partner);
    return partner;
  }

  async setPartnerStatus(id: string, status: string): Promise<PartnerRecord> {
    return this.store.setPartnerStatus(id, assertPartnerStatus(status), this.now().toISOString());
  }

  async createKey(input: {
    partnerId: string;
    workspaces: string[];
    env?: string;
    expiresAt?: string;
    description?: string;
  }): Promise<IssuedKey> {
    const env = (input.env ?? 'live') as KeyEnvironment;
    if (!KEY_ENVIRONMENTS.includes(env)) throw new AdminInputError(`bad --env "${input.env}": use live or test`);
    const workspaces = assertWorkspaces(input.workspaces);
    const expiresAt = normalizeExpiry(input.expiresAt);
    if (!(await this.store.getPartner(input.partnerId))) throw new NotFoundError(`partner ${input.partnerId}`);
    return this.issue(input.partnerId, workspaces, env, expiresAt, input.description);
  }

  private async issue(
    partnerId: string,
    workspaces: string[],
    env: KeyEnvironment,
    expiresAt: string | undefined,
    description: string | undefined,
  ): Promise<IssuedKey> {
    const now = this.now();
    const key = generateApiKey(env);
    const record: KeyRecord = {
      key_hash: hashApiKey(key),
      key_id: newKeyId(now.getTime()),
      partner_id: partnerId,
      prefix: displayPrefix(key),
      workspaces,
      status: 'active',
      expires_at: expiresAt,
      created_at: now.toISOString(),
      description,
    };
    await this.store.putKey(record);
    return { key, key_id: record.key_id, partner_id: partnerId, workspaces, expires_at: expiresAt ?? null };
  }

  async revokeKey(keyId: string): Promise<{ key_id: string; status: string }> {
    const key = await this.store.updateKey(keyId, { status: 'revoked' });
    return { key_id: key.key_id, status: key.status };
  }

  async grant(keyId: string, workspace: string): Promise<{ key_id: string; workspaces: string[] }> {
    const [ws] = assertWorkspaces([workspace]);
    const updated = await this.store.changeGrants(keyId, { add: [ws] });
    return { key_id: updated.key_id, workspaces: updated.workspaces };
  }

  async ungrant(keyId: string, workspace: string): Promise<{ key_id: string; workspaces: string[] }> {
    const updated = await this.store.changeGrants(keyId, { remove: [workspace] });
    return { key_id: updated.key_id, workspaces: updated.workspaces };
  }

  /** Issues a new key with the old key's partner and grants; the old key expires after the grace period. */
  async rotateKey(keyId: string, graceSeconds = DEFAULT_ROTATION_GRACE_SECONDS): Promise<IssuedKey & { old_key_id: string; old_key_expires_at: string }> {
    if (!Number.isInteger(graceSeconds) || graceSeconds < 0) {
      throw new AdminInputError('--grace-seconds must be a non-negative whole number');
    }
    const old = await this.requireKey(keyId);
    if (old.status !== 'active') throw new AdminInputError(`key ${keyId} is ${old.status}; only an active key can be rotated`);
    const env: KeyEnvironment = old.prefix.startsWith('sas_test_') ? 'test' : 'live';
    const issued = await this.issue(old.partner_id, old.workspaces, env, undefined, old.description);
    let oldExpiry = new Date(this.now().getTime() + graceSeconds * 1000).toISOString();
    // Rotation never lengthens the old key's life.
    if (old.expires_at && old.expires_at < oldExpiry) oldExpiry = old.expires_at;
    await this.store.updateKey(keyId, { expires_at: oldExpiry });
    return { ...issued, old_key_id: keyId, old_key_expires_at: oldExpiry };
  }

  async listKeys(partnerId: string): Promise<{ partner_id: string; keys: KeySummary[] }> {
    if (!(await this.store.getPartner(partnerId))) throw new NotFoundError(`partner ${partnerId}`);
    const keys = await this.store.listKeys(partnerId);
    return { partner_id: partnerId, keys: keys.map(summary) };
  }

  private async requireKey(keyId: string): Promise<KeyRecord> {
    const key = await this.store.findKeyById(keyId);
    if (!key) throw new NotFoundError(`key ${keyId}`);
    return key;
  }
}
