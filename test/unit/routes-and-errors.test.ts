import { ROUTES, matchRoute } from '../../lambdas/contract/routes';
import { decodeVerdict, encodeVerdict } from '../../lambdas/http/auth-context';
import { ApiError, errorResponse, toApiError } from '../../lambdas/http/errors';
import { isDatabaseUnavailable } from '../../lambdas/stores/database-faults';

describe('route matching (shared by the stack and local mode)', () => {
  it('matches each route and extracts path parameters', () => {
    expect(matchRoute('POST', '/api/v1/signals/analyze')).toMatchObject({ kind: 'route', route: { id: 'Analyze' } });
    expect(matchRoute('GET', '/api/v1/decisions/dec_123')).toMatchObject({
      kind: 'route',
      route: { id: 'GetDecision' },
      pathParameters: { decision_id: 'dec_123' },
    });
  });

  it('answers 405 with the allowed methods for a known path, 404 otherwise', () => {
    expect(matchRoute('GET', '/api/v1/signals/analyze')).toEqual({ kind: 'method_not_allowed', allow: ['POST'] });
    expect(matchRoute('DELETE', '/api/v1/decisions/x')).toEqual({ kind: 'method_not_allowed', allow: ['GET'] });
    expect(matchRoute('GET', '/api/v1/decisions/')).toEqual({ kind: 'not_found' });
    expect(matchRoute('GET', '/api/v1/decisions/a/b')).toEqual({ kind: 'not_found' });
    expect(matchRoute('POST', '/api/v2/signals/analyze')).toEqual({ kind: 'not_found' });
    expect(matchRoute('POST', '/api/v1/signals/analyze/')).toEqual({ kind: 'not_found' });
  });

  it('names a handler module for every route', () => {
    for (const route of ROUTES) expect(route.entry).toMatch(/^lambdas\/.+\/handler\.ts$/);
  });
});

describe('authorizer verdict in the context', () => {
  it('round-trips an allow verdict and fails closed on anything unreadable', () => {
    const allow = {
      outcome: 'allow' as const,
      partner_id: 'p',
      key_id: 'k',
      scopes: ['analyze' as const, 'read' as const],
    };
    expect(decodeVerdict(encodeVerdict(allow))).toEqual(allow);
    const limited = { ...allow, scopes: [], rate_limit: { limit: 600, window_seconds: 60 } };
    expect(decodeVerdict(encodeVerdict(limited))).toEqual(limited);
    expect(decodeVerdict(encodeVerdict({ outcome: 'ACCOUNT_INACTIVE' }))).toEqual({ outcome: 'ACCOUNT_INACTIVE' });
    expect(decodeVerdict(undefined)).toEqual({ outcome: 'UNAUTHORIZED' });
    expect(decodeVerdict({ outcome: 'allow', partner_id: 'p', key_id: 'k' })).toEqual({ outcome: 'UNAUTHORIZED' });
    expect(decodeVerdict({ outcome: 'allow', partner_id: 'p', key_id: 'k', scopes: 'analyze,admin' })).toEqual({
      outcome: 'UNAUTHORIZED',
    });
    expect(
      decodeVerdict({ outcome: 'allow', partner_id: 'p', key_id: 'k', scopes: 'read', rate_limit: '0/60' }),
    ).toEqual({ outcome: 'UNAUTHORIZED' });
    expect(decodeVerdict({ outcome: 'whatever' })).toEqual({ outcome: 'UNAUTHORIZED' });
  });

  it('carries a rotated key’s counter id only beside a limit, and fails closed on one it cannot use', () => {
    const rotated = {
      outcome: 'allow' as const,
      partner_id: 'p',
      key_id: 'key_new',
      scopes: ['read' as const],
      rate_limit: { limit: 20, window_seconds: 60 },
      rate_counter: 'key_old',
    };
    expect(encodeVerdict(rotated)).toMatchObject({ rate_counter: 'key_old' });
    expect(decodeVerdict(encodeVerdict(rotated))).toEqual(rotated);
    // Keys that count on their own counters (every key not made by a rotation) add nothing to the context.
    const { rate_counter: _, ...own } = rotated;
    expect(Object.keys(encodeVerdict(own))).not.toContain('rate_counter');
    expect(decodeVerdict({ ...encodeVerdict(own), rate_counter: '' })).toEqual(own);
    // Without a limit nothing is counted, so there is no counter to name.
    expect(decodeVerdict({ ...encodeVerdict(own), rate_limit: '', rate_counter: 'key_old' })).not.toHaveProperty(
      'rate_counter',
    );
    // A `#` would name another counter item's key parts.
    for (const bad of ['key_old#60', 'x'.repeat(65), 7])
      expect(decodeVerdict({ ...encodeVerdict(own), rate_counter: bad })).toEqual({ outcome: 'UNAUTHORIZED' });
  });
});

describe('error mapping', () => {
  it('renders the contract shape with the request id, and details only where given', () => {
    const res = errorResponse(new ApiError('UNAUTHORIZED'), 'req-1');
    expect(res.statusCode).toBe(401);
    expect(res.headers['X-Request-Id']).toBe('req-1');
    expect(JSON.parse(res.body)).toEqual({
      error: { code: 'UNAUTHORIZED', message: 'Missing or invalid API key.', request_id: 'req-1' },
    });
    const withDetails = JSON.parse(
      errorResponse(new ApiError('VALIDATION_ERROR', undefined, [{ field: 'a', message: 'b' }]), 'r').body,
    );
    expect(withDetails.error.details).toEqual([{ field: 'a', message: 'b' }]);
  });

  it('turns database throttling and unreachable endpoints into 503 with Retry-After', () => {
    for (const err of [
      Object.assign(new Error('x'), { name: 'ProvisionedThroughputExceededException' }),
      Object.assign(new Error('x'), { name: 'ThrottlingException' }),
      Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('x'), { name: 'TimeoutError' }),
      Object.assign(new Error('x'), { $metadata: { httpStatusCode: 500 } }),
    ]) {
      expect(isDatabaseUnavailable(err)).toBe(true);
      const mapped = toApiError(err, isDatabaseUnavailable);
      expect(mapped.status).toBe(503);
      expect(mapped.headers['Retry-After']).toMatch(/^\d+$/);
    }
  });

  it('answers a transaction still in progress under the same token 503, as the feedback and model stores pass it on', () => {
    // As the SDK throws it: a 400 with this name (the feedback and import transactions rethrow it as it is).
    const err = Object.assign(new Error('Transaction is ongoing for the idempotency token'), {
      name: 'TransactionInProgressException',
      $metadata: { httpStatusCode: 400 },
    });
    expect(isDatabaseUnavailable(err)).toBe(true);
    const mapped = toApiError(err, isDatabaseUnavailable);
    expect(mapped.status).toBe(503);
    expect(mapped.headers['Retry-After']).toMatch(/^\d+$/);
  });

  it('hides anything unexpected behind 500 INTERNAL_ERROR with no internals', () => {
    const mapped = toApiError(
      new TypeError('Cannot read properties of undefined (reading secretThing)'),
      isDatabaseUnavailable,
    );
    expect(mapped.code).toBe('INTERNAL_ERROR');
    expect(mapped.message).not.toContain('secretThing');
  });
});
