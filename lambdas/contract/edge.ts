// Edge protection's origin header: the stack has CloudFront set it, lambdas/http/edge-origin.ts checks it. Pure data.

/** The header CloudFront adds to every request it sends to the HTTP API (lower case, as payload 2.0 names headers). */
export const EDGE_ORIGIN_HEADER = 'x-origin-verify';
