// The API reference at /docs in local mode, in a real headless Chromium (Debian's `chromium` package): it loads
// with no console errors, fetches nothing from any other origin, and shows every route of the route table.
// Without Chromium on the machine the test reports itself skipped, with the command that installs it.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { docsPages } from '../../lib/local/docs-pages';
import { type RunningServer, startLocalServer } from '../../lib/local/server';
import { API_BASE_PATH, ROUTES } from '../../lambdas/contract/routes';
import { type Service, createService } from '../../lambdas/service';
import { type TestTables, createTestTables } from '../support/dynamodb';
import { testSettings } from '../support/local-api';

jest.setTimeout(120_000);

const CHROMIUM = '/usr/bin/chromium';
const INSTALL_CHROMIUM = 'sudo apt-get install -y chromium';
/** No internet on these machines: nothing in the background may try to reach it. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // A container's /dev/shm may be 64 MB; Debian's launcher means to add this for a small one, but its size check
  // breaks where /dev/shm is mounted twice (an error on stderr, the flag left out).
  '--disable-dev-shm-usage',
];

const haveChromium = existsSync(CHROMIUM);
const inChromium = haveChromium ? it : it.skip;
if (!haveChromium)
  console.warn(
    `Chromium not found at ${CHROMIUM}: the /docs browser test is skipped. Install it with: ${INSTALL_CHROMIUM}`,
  );

let tables: TestTables;
let service: Service;
let server: RunningServer;
let context: BrowserContext | undefined;
let profile: string;

beforeAll(async () => {
  tables = await createTestTables('docs');
  service = createService(testSettings(tables));
  server = await startLocalServer({ port: 0, handlers: service, pages: docsPages({ workspaceId: 'ws_demo' }) });
  profile = mkdtempSync(join(tmpdir(), 'sas-chromium-'));
});
afterAll(async () => {
  await context?.close();
  await server?.close();
  service?.close();
  await tables?.drop();
  rmSync(profile, { recursive: true, force: true });
});

const origin = () => server.baseUrl.slice(0, -API_BASE_PATH.length);

it('serves the page, the document and the renderer from this server, and leaves the API as it was', async () => {
  const html = await fetch(`${origin()}/docs`);
  expect(html.status).toBe(200);
  expect(html.headers.get('content-security-policy')).toContain("default-src 'self'");
  expect(await html.text()).not.toMatch(/https?:\/\//);
  const text = await (await fetch(`${origin()}/docs/openapi.json`)).text();
  const doc = JSON.parse(text) as {
    servers: { url: string }[];
    components: { parameters: { IdempotencyKey: { example?: string } } };
  };
  // "Try it out" calls this server by path, whatever host name the page was opened at (connect-src 'self'), with
  // the demo key's workspace, and no fixed Idempotency-Key (the same one on every try: 409 once a body changed).
  expect(doc.servers[0].url).toBe(API_BASE_PATH);
  const workspaces = new Set([...text.matchAll(/"workspace_id":"([^"]*)"/g)].map((m) => m[1]));
  expect([...workspaces]).toEqual(['ws_demo']);
  expect(text).not.toMatch(/"ws_(?!demo")/);
  expect(doc.components.parameters.IdempotencyKey.example).toBeUndefined();
  expect((await fetch(`${origin()}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
  // Not a page: the API's fallback answers, as before.
  const unknown = await fetch(`${origin()}/docs/nope`);
  expect(unknown.status).toBe(404);
  expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
});

inChromium(
  `shows every route with no console errors in headless Chromium (skipped without it: ${INSTALL_CHROMIUM})`,
  async () => {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('requestfailed', (req) => problems.push(`failed: ${req.url()}`));
    page.on('request', (req) => {
      if (!req.url().startsWith(origin()) && !req.url().startsWith('data:'))
        problems.push(`other origin: ${req.url()}`);
    });

    const response = await page.goto(`${origin()}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
    const shown = await page.$$eval('.opblock', (blocks) =>
      blocks.map(
        (b) =>
          `${b.querySelector('.opblock-summary-method')?.textContent?.trim()} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
      ),
    );
    const routes = ROUTES.map((r) => `${r.method} ${r.path.slice(API_BASE_PATH.length)}`);
    expect([...shown].sort()).toEqual([...routes].sort());
    expect(await page.title()).toContain('Signal Analysis Service');
    await page.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
  },
);
