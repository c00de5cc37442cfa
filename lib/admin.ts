// Admin use cases (partners and keys), shared by the admin CLI and local mode's demo seeding. Plaintext keys are
// returned once, from createKey/rotateKey, and never stored: the store only ever sees the SHA-256.
import {
  type KeyEnvironment,
  KEY_ENVIRONMENTS,
  displayPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  looksLikeApiKey,
  keyExpired,
} from '../lambdas/domain/api-key';
import { newKeyId } from '../lambdas/domain/ids';
import type { Scope } from '../lambdas/contract/routes';
import { MAX_PREFIX_GRANTS, grantCovers, isPrefixGrant } from '../lambdas/domain/grants';
import {
  type AccessStore,
  type GrantOwner,
  type KeyRecord,
  type KeyRetirement,
  NotFoundError,
  type PartnerRecord,
  SharedGrantError,
} from '../lambdas/domain/ports';
import type { RateLimit } from '../lambdas/domain/rate-limit';
import { localActor } from './admin/actor';
import { type KeySummary, keySummary } from './admin/key-summary';
import {
  ADMIN_IMPORT_NAMESPACE,
  AdminInputError,
  assertPartnerId,
  assertDate,
  assertGrants,
  assertPartnerStatus,
  assertRateLimit,
  assertScopes,
  refuseApiKey,
  refuseKeyLike,
} from './admin/operator-input';

const DEFAULT_ROTATION_GRACE_SECONDS = 86_400;
/** Ten years: a longer grace is no rotation at all, and a much longer one is past the last date JavaScript holds. */
const MAX_ROTATION_GRACE_SECONDS = 315_360_000;
/** The refusal of a grace period that is no whole number of seconds up to the ten years. */
export const GRACE_SECONDS_PROBLEM = `--grace-seconds must be a whole number from 0 to ${MAX_ROTATION_GRACE_SECONDS} (10 years)`;

export interface IssuedKey {
  key: string;
  key_id: string;
  partner_id: string;
  workspaces: string[];
  expires_at: string | null;
  scopes: Scope[];
  rate_limit: RateLimit | null;
}

/** What a new key is issued with besides its partner, grants and environment (a rotation: the old key's). */
type KeyFields = Pick<KeyRecord, 'expires_at' | 'description' | 'scopes' | 'rate_limit' | 'rate_counter'>;

/** Options of every command that grants. */
interface GrantOptions {
  /** Grant even when another partner's key holds an overlapping workspace or prefix. */
  allowShared?: boolean;
}

const sorted = (items: Iterable<string>) => [...items].sort();

/**
 * A key whose grants may change: not one still holding version 1's list, since a grant, ungrant or rotation now would
 * be undone or lost by the migration, which moves the whole list as it stands.
 */
function changeable(key: KeyRecord): KeyRecord {
  if (key.legacy_workspaces)
    throw new AdminInputError(
      `key ${key.key_id} still holds version 1's workspace list: run key migrate-grants first (nothing was changed)`,
    );
  return key;
}

export class AdminService {
  private readonly now: () => Date;
  /** The audit events' actor: `local:<OS user>` unless the CLI says otherwise (`--aws`: the caller's principal ARN). */
  private readonly by: { actor: string };

  constructor(
    private readonly store: AccessStore,
    options: { actor?: string; now?: () => Date } = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.by = { actor: options.actor ?? localActor() };
  }

  async createPartner(input: { id: string; name: string; status?: string }): Promise<PartnerRecord> {
    refuseKeyLike('the partner id', input.id);
    assertPartnerId(input.id);
    if (input.id === ADMIN_IMPORT_NAMESPACE) {
      throw new AdminInputError(`partner id "${input.id}" is reserved for the admin CLI's own imports`);
    }
    if (!input.name.trim()) throw new AdminInputError('--name must not be blank');
    // Checked before anything is written, as the partner's audit event would refuse it (in the audit log's words).
    if (looksLikeApiKey(input.name))
      throw new AdminInputError('--name holds an API key: nothing was created (keys are never stored)');
    const at = this.now().toISOString();
    const partner: PartnerRecord = {
      partner_id: input.id,
      name: input.name,
      status: assertPartnerStatus(input.status ?? 'active'),
      created_at: at,
      updated_at: at,
    };
    await this.store.createPartner(partner, this.by);
    return partner;
  }

  async setPartnerStatus(id: string, status: string): Promise<PartnerRecord> {
    refuseApiKey('the partner id', id);
    return this.store.setPartnerStatus(id, assertPartnerStatus(status), this.now().toISOString(), this.by);
  }

  async createKey(
    input: {
      partnerId: string;
      workspaces: string[];
      env?: string;
      expiresAt?: string;
      description?: string;
      scopes?: string[];
      /** `n/s`, `n/m` or `n/h`. */
      rateLimit?: string;
    } & GrantOptions,
  ): Promise<IssuedKey> {
    const env = (input.env ?? 'live') as KeyEnvironment;
    if (!KEY_ENVIRONMENTS.includes(env)) throw new AdminInputError(`bad --env "${input.env}": use live or test`);
    const workspaces = assertGrants(input.workspaces);
    const expiresMs = input.expiresAt === undefined ? undefined : assertDate(input.expiresAt);
    // An expiry already past issues a key that can never be used: almost surely a typo in the year.
    if (expiresMs !== undefined && expiresMs <= this.now().getTime()) {
      throw new AdminInputError(
        `--expires-at ${new Date(expiresMs).toISOString()} is not in the future: the key could never be used`,
      );
    }
    // Checked before anything is written, as the key's audit event would refuse it after its grants.
    if (input.description !== undefined && looksLikeApiKey(input.description)) {
      throw new AdminInputError('--description holds an API key: nothing was issued (keys are never stored)');
    }
    const fields: KeyFields = {
      expires_at: expiresMs === undefined ? undefined : new Date(expiresMs).toISOString(),
      description: input.description,
      scopes: assertScopes(input.scopes),
      rate_limit: input.rateLimit === undefined ? undefined : assertRateLimit(input.rateLimit),
    };
    await this.requirePartner(input.partnerId);
    await this.refuseSharing(input.partnerId, workspaces, input);
    return this.issue(input.partnerId, workspaces, env, fields);
  }

  /** The cross-partner check; docs/operations.md, "Grants", says how far it holds under races. */
  private async refuseSharing(partnerId: string, grants: string[], options: GrantOptions): Promise<void> {
    if (options.allowShared) return;
    // A revoked or expired key's grants count too: the workspace keeps its partner's decisions, policy and learned
    // model, which a new holder would read. Grants of a key never stored (a `key create` stopped midway) do not: no
    // key of theirs ever used them. Each key is read once, however many of its grants overlap.
    const stored = new Map<string, Promise<boolean>>();
    const counts = (keyId: string): Promise<boolean> => {
      let known = stored.get(keyId);
      if (!known) {
        known = this.store.findKeyById(keyId).then((key) => key !== undefined);
        stored.set(keyId, known);
      }
      return known;
    };
    const shared = await this.store.grants.foreignHolders(partnerId, grants, counts);
    if (shared.length) throw new SharedGrantError(shared);
  }

  private async issue(
    partnerId: string,
    workspaces: string[],
    env: KeyEnvironment,
    { expires_at, description, scopes, rate_limit, rate_counter }: KeyFields,
    /** Rotation: the old key's new expiry is stored with the new key, in one transaction and one `key.rotate` event. */
    retiring?: KeyRetirement,
  ): Promise<IssuedKey> {
    const now = this.now();
    const key = generateApiKey(env);
    const record: KeyRecord = {
      key_hash: hashApiKey(key),
      key_id: newKeyId(now.getTime()),
      partner_id: partnerId,
      prefix: displayPrefix(key),
      status: 'active',
      expires_at,
      created_at: now.toISOString(),
      description,
      scopes,
      rate_limit,
      rate_counter,
    };
    // Grants first: the key is stored (and usable) only once all of them are. When it is not stored after all (a
    // rotation that lost to a revoke, the key's event refused), its grants go too: held by no key, they would refuse
    // the workspaces to every other partner, naming a key no listing shows.
    const owner = { key_id: record.key_id, partner_id: partnerId };
    await this.store.grants.addGrants(owner, workspaces, this.by);
    try {
      await this.store.putKey(record, this.by, retiring);
    } catch (err) {
      await this.store.grants.removeGrants(owner, workspaces, this.by).catch(() => undefined);
      throw err;
    }
    return {
      key,
      key_id: record.key_id,
      partner_id: partnerId,
      workspaces,
      expires_at: expires_at ?? null,
      scopes,
      rate_limit: rate_limit ?? null,
    };
  }

  async revokeKey(keyId: string): Promise<{ key_id: string; status: string }> {
    await this.assertKeyId(keyId);
    const key = await this.store.updateKey(keyId, { status: 'revoked' }, { ...this.by, action: 'key.revoke' });
    return { key_id: key.key_id, status: key.status };
  }

  /** Adds grants (workspace ids or prefixes); concurrent grants and ungrants on one key never lose each other's. */
  async grant(
    keyId: string,
    workspaces: string | string[],
    options: GrantOptions = {},
  ): Promise<{ key_id: string; workspaces: string[] }> {
    const grants = assertGrants(typeof workspaces === 'string' ? [workspaces] : workspaces);
    const key = await this.requireKey(keyId);
    // A revoked key reaches nothing, but its grants still count in the cross-partner check: one added now only blocks.
    if (key.status === 'revoked') throw new AdminInputError(`${keyId} is revoked: it takes no new grant`);
    const prefixes = grants.filter(isPrefixGrant);
    if (prefixes.length) {
      const held = new Set(await this.store.grants.prefixGrants(keyId));
      if (new Set([...held, ...prefixes]).size > MAX_PREFIX_GRANTS) {
        throw new AdminInputError(
          `a key holds at most ${MAX_PREFIX_GRANTS} prefix grants; ${keyId} holds ${held.size}`,
        );
      }
    }
    await this.refuseSharing(key.partner_id, grants, options);
    await this.store.grants.addGrants({ key_id: keyId, partner_id: key.partner_id }, grants, this.by);
    // The listing is an index read (eventually consistent on AWS): our own change is applied on top of it.
    const listed = new Set(await this.store.grants.listGrants(keyId));
    for (const g of grants) listed.add(g);
    return { key_id: keyId, workspaces: sorted(listed) };
  }

  async ungrant(
    keyId: string,
    workspaces: string | string[],
  ): Promise<{
    key_id: string;
    workspaces: string[];
    still_allowed?: { workspace: string; by: string }[];
    not_held?: string[];
  }> {
    const grants = [...new Set(typeof workspaces === 'string' ? [workspaces] : workspaces)];
    if (grants.length === 0) throw new AdminInputError('give at least one --workspace (or --workspaces-file)');
    const owner = await this.grantOwner(keyId);
    // A grant the key did not hold (a typo, most likely) removes nothing: the operator hears of it.
    const removed = new Set(await this.store.grants.removeGrants(owner, grants, this.by));
    const notHeld = grants.filter((g) => !removed.has(g));
    const listed = new Set(await this.store.grants.listGrants(keyId));
    for (const g of grants) listed.delete(g);
    // A workspace a prefix the key keeps still covers: the key still reaches it, which the operator must hear.
    const stillAllowed = grants.flatMap((workspace) => {
      const by = isPrefixGrant(workspace) ? undefined : [...listed].find((g) => grantCovers(g, workspace));
      return by ? [{ workspace, by }] : [];
    });
    return {
      key_id: keyId,
      workspaces: sorted(listed),
      ...(stillAllowed.length ? { still_allowed: stillAllowed } : {}),
      ...(notHeld.length ? { not_held: notHeld } : {}),
    };
  }

  /** Sets (`n/s|m|h`) or removes (`null`) a key's rate limit; takes effect within AUTH_CACHE_TTL_SECONDS. */
  async setRateLimit(keyId: string, limit: string | null): Promise<{ key_id: string; rate_limit: RateLimit | null }> {
    const rate = limit === null ? null : assertRateLimit(limit);
    await this.assertKeyId(keyId);
    const key = await this.store.updateKey(keyId, { rate_limit: rate }, { ...this.by, action: 'key.set_rate_limit' });
    return { key_id: key.key_id, rate_limit: key.rate_limit ?? null };
  }

  /**
   * Issues a new key with the old key's partner, grants, scopes and rate limit, counting on the old key's rate limit
   * counters; the old key expires after the grace period.
   */
  async rotateKey(
    keyId: string,
    graceSeconds = DEFAULT_ROTATION_GRACE_SECONDS,
  ): Promise<IssuedKey & { old_key_id: string; old_key_expires_at: string }> {
    if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_ROTATION_GRACE_SECONDS) {
      throw new AdminInputError(GRACE_SECONDS_PROBLEM);
    }
    // Found through the by_key_id index, eventually consistent on AWS: it may still show the key as it was before a
    // set-rate-limit of a moment ago. What the new key gets (limit, scopes, expiry, rate counter) is read again from
    // the key's own item, consistently.
    const old = await this.store.getKeyByHash((await this.requireKey(keyId)).key_hash);
    if (!old) throw new NotFoundError(`key ${keyId}`);
    if (old.status !== 'active')
      throw new AdminInputError(`key ${keyId} is ${old.status}; only an active key can be rotated`);
    // An expired key is refused like a revoked one: rotating it would hand out a key the old one no longer grants.
    if (keyExpired(old, this.now().getTime())) {
      throw new AdminInputError(
        `key ${keyId} expired at ${old.expires_at}; only a key that has not expired can be rotated (issue a new one with key create)`,
      );
    }
    // Its expiry is now the grace period's end, which a second rotation would hand to the new key.
    if (old.replaced_by) {
      throw new AdminInputError(
        `key ${keyId} was rotated to ${old.replaced_by} and stops at ${old.expires_at}; rotate ${old.replaced_by}, ` +
          `or stop ${keyId} now with key revoke`,
      );
    }
    const env: KeyEnvironment = old.prefix.startsWith('sas_test_') ? 'test' : 'live';
    // Not the index's listing: an ungrant made a moment before must not be copied to the new key (currentGrants).
    const grants = await this.store.grants.currentGrants(keyId);
    let oldExpiry = new Date(this.now().getTime() + graceSeconds * 1000).toISOString();
    // Rotation never lengthens the old key's life.
    if (old.expires_at && old.expires_at < oldExpiry) oldExpiry = old.expires_at;
    const retiring = { key: old, expires_at: oldExpiry };
    // The new key keeps the old key's expiry: rotation replaces a secret, it never lengthens a key's life. It counts
    // its rate limit on the old key's counters (the lineage's first key's, after several rotations): a rotation hands
    // the partner's allowance to the new key, it does not give both keys a limit of their own for the grace period.
    const fields: KeyFields = { ...old, rate_counter: old.rate_counter ?? old.key_id };
    const issued = await this.issue(old.partner_id, grants, env, fields, retiring);
    return { ...issued, old_key_id: keyId, old_key_expires_at: oldExpiry };
  }

  /** `key migrate-grants`: version 1 keys' workspace lists become grant items. */
  async migrateLegacyGrants(): Promise<{ keys_migrated: number; grants_migrated: number }> {
    const moved = await this.store.migrateLegacyGrants(this.by);
    return { keys_migrated: moved.keys, grants_migrated: moved.grants };
  }

  /** Throws NotFoundError (the CLI prints "unknown partner <id>") when no partner has this id. */
  async requirePartner(partnerId: string): Promise<PartnerRecord> {
    refuseApiKey('the partner id', partnerId);
    const partner = await this.store.getPartner(partnerId);
    if (!partner) throw new NotFoundError(`partner ${partnerId}`);
    return partner;
  }

  async listKeys(partnerId: string): Promise<{ partner_id: string; keys: KeySummary[] }> {
    await this.requirePartner(partnerId);
    const keys = await this.store.listKeys(partnerId);
    const summaries: KeySummary[] = [];
    const nowMs = this.now().getTime();
    for (const key of keys) summaries.push(keySummary(key, await this.store.grants.listGrants(key.key_id), nowMs));
    return { partner_id: partnerId, keys: summaries };
  }

  /**
   * A key id, not a key's secret pasted in its place (the likely slip when a key has leaked): the error would print
   * the secret, so it names the key's id instead, and nothing is done.
   */
  private async assertKeyId(keyId: string): Promise<void> {
    if (!keyId.trim()) throw new AdminInputError('--key-id must be a key_id (key_...)');
    const secret = keyId.trim();
    // Any `sas_` value, a mistyped secret too: the key's secrets begin so, and key_ids never do.
    if (!secret.startsWith('sas_')) return;
    const key = isWellFormedApiKey(secret) ? await this.store.getKeyByHash(hashApiKey(secret)) : undefined;
    throw new AdminInputError(
      `--key-id is a key's secret, not its key_id${key ? ` (its key_id is ${key.key_id})` : ' (no key has it)'}: nothing was done`,
    );
  }

  /**
   * Whose grants an ungrant removes: the key's, or, for a key id never stored (its `key create` or `key rotate` was
   * stopped after its grants were written), the grants' own owner, so that they can be removed at all.
   */
  private async grantOwner(keyId: string): Promise<GrantOwner> {
    await this.assertKeyId(keyId);
    const key = await this.store.findKeyById(keyId);
    if (key) return { key_id: keyId, partner_id: changeable(key).partner_id };
    const owner = await this.store.grants.ownerOf(keyId);
    if (!owner) throw new NotFoundError(`key ${keyId}`);
    return owner;
  }

  private async requireKey(keyId: string): Promise<KeyRecord> {
    await this.assertKeyId(keyId);
    const key = await this.store.findKeyById(keyId);
    if (!key) throw new NotFoundError(`key ${keyId}`);
    return changeable(key);
  }
}
