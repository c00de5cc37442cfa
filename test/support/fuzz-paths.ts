// Paths for the fuzz test's requests (fuzz-requests.ts): a route's path with valid, foreign or hostile parameters,
// list queries, junk query strings and unknown paths.
import fc from 'fast-check';
import { API_BASE_PATH, type RouteDefinition } from '../../lambdas/contract/routes';
import { PRIORITIES } from '../../lambdas/domain/decision';
import { hostileString } from './hostile-arbitraries';
import {
  type FuzzWorld,
  longString,
  MAX_NODE_PATH,
  percentEncode,
  PROTOTYPE_NAMES,
  validDecisionId,
} from './fuzz-values';
import { entriesOf } from './fuzz-bodies';

const encodedSegment = (value: fc.Arbitrary<string>, broken = true) =>
  fc
    .tuple(value, fc.constantFrom('encoded', 'encoded', 'encoded', 'raw', broken ? 'broken' : 'raw'))
    .map(([v, how]) => {
      if (how === 'raw') return /^[A-Za-z0-9\-._~:@!$&'()*+,;=]+$/.test(v) ? v : percentEncode(v);
      if (how === 'broken') return `${percentEncode(v)}%E0%A4%`;
      return percentEncode(v);
    });

export const junkQuery = fc.option(
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom('workspace_id', 'limit', ...PROTOTYPE_NAMES, 'a'), hostileString(8)),
        hostileString(30),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((pairs) => '?' + pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&')),
  { nil: '', freq: 5 },
);

/** Mostly valid, sometimes hostile. */
const mostly = (valid: fc.Arbitrary<string>, hostile: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: hostile });
const rfc3339 = fc
  .date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') })
  .map((d) => d.toISOString());

/** A list query: the workspace, each other parameter in one request of two (mostly valid), sometimes a parameter
 * twice or an unknown one. */
export const listQuery = (w: FuzzWorld, workspace: fc.Arbitrary<string>) => {
  const sometimes = (value: fc.Arbitrary<string>) => fc.option(value, { nil: undefined, freq: 2 });
  return fc
    .tuple(
      fc.record({
        workspace_id: mostly(workspace, fc.constantFrom('', 'ws_a,ws_b')),
        limit: sometimes(
          mostly(
            fc.integer({ min: 1, max: 100 }).map(String),
            fc.constantFrom('0', '101', '-1', '1.5', '1e2', 'abc', '', '1,2'),
          ),
        ),
        starting_after: sometimes(
          fc.oneof(validDecisionId, hostileString(30), ...w.decisions.granted.map((id) => fc.constant(id))),
        ),
        priority: sometimes(
          mostly(
            fc.subarray([...PRIORITIES], { minLength: 1 }).map((p) => p.join(',')),
            hostileString(20),
          ),
        ),
        created_after: sometimes(mostly(rfc3339, hostileString(30))),
        created_before: sometimes(mostly(rfc3339, hostileString(30))),
      }),
      fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), hostileString(8)), hostileString(8)),
      fc.constantFrom('plain', 'plain', 'plain', 'plain', 'repeat', 'odd'),
    )
    .map(([params, odd, how]) => {
      const pairs = entriesOf(params).map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`);
      if (how === 'repeat') pairs.push(pairs[pairs.length - 1]);
      if (how === 'odd') pairs.push(`${percentEncode(odd[0])}=${percentEncode(odd[1])}`);
      return `?${pairs.join('&')}`;
    });
};

/** The route's path with its parameters filled in. */
export function routePath(
  route: RouteDefinition,
  w: FuzzWorld,
  grantedOnly: boolean,
  workspaceInPath: fc.Arbitrary<string>,
): fc.Arbitrary<string> {
  const decision = grantedOnly
    ? fc.constantFrom(...w.decisions.granted)
    : fc.oneof(
        fc.constantFrom(...w.decisions.foreign),
        validDecisionId,
        fc.constantFrom('dec_', 'dec_0', ...PROTOTYPE_NAMES, '.', '..'),
        hostileString(40),
        longString(200, 6_000),
      );
  const params: Record<string, fc.Arbitrary<string>> = { workspace_id: workspaceInPath, decision_id: decision };
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  return fc.tuple(...names.map((n) => encodedSegment(params[n] ?? hostileString(20), !grantedOnly))).map((values) => {
    let i = 0;
    return route.path.replace(/\{(\w+)\}/g, () => values[i++]).slice(0, MAX_NODE_PATH);
  });
}

export const unknownPath = fc.oneof(
  fc.constantFrom(
    '/',
    '/api',
    API_BASE_PATH,
    `${API_BASE_PATH}/`,
    '/api/v2/signals/analyze',
    '/API/V1/signals/analyze',
    `${API_BASE_PATH}/signals/analyze/`,
    `${API_BASE_PATH}//signals/analyze`,
    `${API_BASE_PATH}/signals/../signals/analyze`,
    `${API_BASE_PATH}/signals/%61nalyze`,
    `${API_BASE_PATH}/decisions/`,
    `${API_BASE_PATH}/workspaces//policy`,
    `${API_BASE_PATH}/workspaces/ws_a/policy/extra`,
    `${API_BASE_PATH}/__proto__`,
    `${API_BASE_PATH}/constructor/prototype`,
    `${API_BASE_PATH}/signals/analyze%00`,
    `${API_BASE_PATH}/signals`,
    '/favicon.ico',
    '/api/v1/decisions/dec_x/feedback/x',
    '*',
  ),
  fc
    .array(encodedSegment(hostileString(30)), { minLength: 1, maxLength: 6 })
    .map((segments) => `${API_BASE_PATH}/${segments.join('/')}`),
  longString(1_000, MAX_NODE_PATH - 20, fc.constantFrom('a/', '%2F', '..%2F', 'x')).map((s) => `${API_BASE_PATH}/${s}`),
);

export const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
