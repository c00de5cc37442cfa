// Lambda authorizer (HTTP API, payload 2.0, simple responses). It never denies at the gateway: the gateway would
// answer with its own body. It passes its verdict in the context and the route Lambdas enforce it.
import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { runtimeConfig } from '../config';
import { sharedAccessStore } from '../stores/shared-stores';
import { type AuthContext, encodeVerdict } from '../http/auth-context';
import { logger } from '../observability';
import { KeyAuthorizer } from './authorize';

let authorizer: KeyAuthorizer | undefined;

function keyAuthorizer(): KeyAuthorizer {
  if (!authorizer) {
    authorizer = new KeyAuthorizer(sharedAccessStore(), runtimeConfig().authCacheTtlSeconds);
  }
  return authorizer;
}

export async function handler(
  event: APIGatewayRequestAuthorizerEventV2,
): Promise<{ isAuthorized: boolean; context: AuthContext }> {
  try {
    const verdict = await keyAuthorizer().verify(event.headers?.authorization);
    return { isAuthorized: true, context: encodeVerdict(verdict) };
  } catch (err) {
    // An authorizer that throws gives API Gateway's own 500; answer a contract 500 from the route instead.
    logger.error('authorizer failed', { request_id: event.requestContext?.requestId, error: errorName(err) });
    return { isAuthorized: true, context: { outcome: 'INTERNAL_ERROR' } };
  }
}

const errorName = (err: unknown) => (err instanceof Error ? err.name : typeof err);
