// Edge protection (docs/deploy.md): CloudFront adds a secret header to every request it sends to the HTTP API, and
// a request without it came around CloudFront and its firewall. The authorizer (for the routes, through its verdict)
// and the fallback (404/405) refuse such a request with 403 FORBIDDEN before anything else. With no secret set (edge
// protection off, local mode) nothing is required. The secret is compared in constant time and never logged.
import { createHash, timingSafeEqual } from 'node:crypto';
import { EDGE_ORIGIN_HEADER } from '../contract/edge';

export { EDGE_ORIGIN_HEADER };

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether a request must be refused because it did not come through CloudFront. */
export function bypassedEdge(
  headers: Record<string, string | undefined> | undefined,
  secret: string | undefined,
): boolean {
  if (!secret) return false;
  let sent: string | undefined;
  for (const [name, value] of Object.entries(headers ?? {}))
    if (name.toLowerCase() === EDGE_ORIGIN_HEADER) sent = value;
  // Digests of equal length, so the comparison takes the same time whatever was sent.
  return sent === undefined || !timingSafeEqual(digest(sent), digest(secret));
}
