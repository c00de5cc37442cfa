// The API reference at /docs in local mode: docs/openapi.yaml rendered by Swagger UI, served from node_modules
// (swagger-ui-dist), so it works offline and loads nothing from another origin (its Content-Security-Policy says
// so too). Not part of the deployed stack: API Gateway serves only /api/v1.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { API_BASE_PATH } from '../../lambdas/contract/routes';

const OPENAPI_FILE = resolve(__dirname, '..', '..', 'docs', 'openapi.yaml');
/** A workspace id as a whole JSON string (an example's value, `"ws_northwind"`), not one inside a sentence. */
const EXAMPLE_WORKSPACE = /"ws_[\w.:-]*"/g;
export const DOCS_PATH = '/docs';

/** The files of swagger-ui-dist the page uses, and their media types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

interface Page {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Signal Analysis Service API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" type="image/png" href="${DOCS_PATH}/assets/favicon-32x32.png" sizes="32x32">
  <link rel="stylesheet" href="${DOCS_PATH}/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${DOCS_PATH}/assets/swagger-ui-bundle.js"></script>
  <script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to an online validator for its badge.
const INIT = `window.ui = SwaggerUIBundle({
  url: '${DOCS_PATH}/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
});
`;

const SECURITY_HEADERS = {
  // Swagger UI sets inline styles; everything else must come from this server.
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function page(status: number, type: string, body: string | Buffer, cache = 'no-cache'): Page {
  return {
    status,
    headers: { 'content-type': type, 'cache-control': cache, ...SECURITY_HEADERS },
    body: Buffer.from(body),
  };
}

/**
 * The pages under /docs, or undefined for any other request (which then goes to the API as before). The document
 * served names this server's API as its first server, by path (so "Try it out" calls this local mode from whatever
 * host name the page was opened at: `connect-src 'self'`), every example's workspace is `workspaceId` (the demo
 * key's), and its example `Idempotency-Key` is left out: every "Try it out" would send the same one, and a changed
 * body would meet `409 IDEMPOTENCY_CONFLICT` for 24 hours.
 */
export function docsPages(
  options: { workspaceId?: string } = {},
): (request: { method: string; path: string }) => Page | undefined {
  const assetsDir = dirname(require.resolve('swagger-ui-dist/package.json'));
  return ({ method, path }) => {
    // Anything else (another method, an unknown file) is left to the API's fallback: its JSON 404.
    if (method !== 'GET' || (path !== DOCS_PATH && !path.startsWith(`${DOCS_PATH}/`))) return undefined;
    if (path === DOCS_PATH || path === `${DOCS_PATH}/`) return page(200, 'text/html; charset=utf-8', HTML);
    if (path === `${DOCS_PATH}/init.js`) return page(200, 'text/javascript; charset=utf-8', INIT);
    if (path === `${DOCS_PATH}/openapi.yaml`)
      return page(200, 'application/yaml; charset=utf-8', readFileSync(OPENAPI_FILE));
    if (path === `${DOCS_PATH}/openapi.json`) {
      // Read on every request, so an edit to the document shows on reload.
      const doc = parseYaml(readFileSync(OPENAPI_FILE, 'utf8')) as {
        servers?: unknown[];
        components?: { parameters?: { IdempotencyKey?: { example?: unknown } } };
      };
      doc.servers = [{ url: API_BASE_PATH, description: 'This local mode' }, ...(doc.servers ?? [])];
      delete doc.components?.parameters?.IdempotencyKey?.example;
      const json = JSON.stringify(doc);
      const body = options.workspaceId ? json.replace(EXAMPLE_WORKSPACE, JSON.stringify(options.workspaceId)) : json;
      return page(200, 'application/json; charset=utf-8', body);
    }
    const asset = path.slice(`${DOCS_PATH}/assets/`.length);
    if (path.startsWith(`${DOCS_PATH}/assets/`) && Object.hasOwn(ASSETS, asset)) {
      return page(200, ASSETS[asset], readFileSync(join(assetsDir, asset)), 'public, max-age=3600');
    }
    return undefined;
  };
}
