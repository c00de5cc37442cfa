// Workspace grants (docs/operations.md, "Grants"): a grant is a workspace id, or a prefix ending in `*` with at least 3
// characters before it (`acme:*` covers every workspace id starting with `acme:`). Pure rules, no storage.

export const WORKSPACE_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
const MIN_PREFIX_LENGTH = 3;
export const MAX_PREFIX_GRANTS = 100;
/**
 * Characters a grant's index head keeps: prefixes have at least this many, so a prefix and the workspaces it covers
 * share a head.
 */
const HEAD_LENGTH = MIN_PREFIX_LENGTH;

/**
 * True for a string that can be a workspace id. Checked before any lookup or cache insert: an id no grant can match
 * (too long, other characters) is answered like any workspace without a grant, and costs neither a read nor memory.
 */
export const isWorkspaceId = (id: unknown): id is string =>
  typeof id === 'string' && id.length <= 128 && WORKSPACE_ID_PATTERN.test(id);

export const isPrefixGrant = (grant: string): boolean => grant.endsWith('*');

/** The text a prefix grant matches (without its `*`). */
export const prefixOf = (grant: string): string => grant.slice(0, -1);

/** Why a grant is malformed, or undefined when it is well-formed. */
export function grantProblem(grant: string): string | undefined {
  if (isPrefixGrant(grant)) {
    const prefix = prefixOf(grant);
    if (prefix.length < MIN_PREFIX_LENGTH || !WORKSPACE_ID_PATTERN.test(prefix)) {
      return `bad prefix grant "${grant}": at least ${MIN_PREFIX_LENGTH} characters of A-Z a-z 0-9 . _ : - before the final *`;
    }
    return undefined;
  }
  if (!WORKSPACE_ID_PATTERN.test(grant)) return `bad workspace "${grant}": 1 to 128 characters of A-Z a-z 0-9 . _ : -`;
  return undefined;
}

/** True when `grant` (a workspace id or a prefix grant) gives access to `workspaceId`. */
export function grantCovers(grant: string, workspaceId: string): boolean {
  return isPrefixGrant(grant) ? workspaceId.startsWith(prefixOf(grant)) : grant === workspaceId;
}

/** True when some workspace id could be covered by both grants (the cross-partner check for prefixes). */
export function grantsOverlap(a: string, b: string): boolean {
  if (!isPrefixGrant(a) && !isPrefixGrant(b)) return a === b;
  if (isPrefixGrant(a) && isPrefixGrant(b)) {
    const pa = prefixOf(a);
    const pb = prefixOf(b);
    return pa.startsWith(pb) || pb.startsWith(pa);
  }
  return isPrefixGrant(a) ? grantCovers(a, b) : grantCovers(b, a);
}

/** The first characters of a grant: workspaces and the prefixes that cover them share this head. */
export const grantHead = (grant: string): string =>
  (isPrefixGrant(grant) ? prefixOf(grant) : grant).slice(0, HEAD_LENGTH);
