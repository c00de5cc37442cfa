// The README's tables hold what the code holds: every route, every variable with its default, every stack setting,
// and a link to every guide in docs/.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROUTES } from '../../lambdas/contract/routes';
import { DEFAULT_LOCAL_SETTINGS, DEFAULT_SETTINGS, ENV } from '../../lambdas/contract/settings';
import { DEFAULT_STAGE, stackNameFor } from '../../lib/stack-outputs';

const root = path.resolve(__dirname, '../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** The rows of the first table under a `## heading`, as cells. */
function tableUnder(heading: string): string[][] {
  const section = readme.slice(readme.indexOf(`\n## ${heading}\n`));
  const lines = section.split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const firstCode = (cell: string) => /`([^`]*)`/.exec(cell)?.[1];

describe('README', () => {
  it('lists every route with its method and scope, and no other', () => {
    const listed = tableUnder('Routes').map(([method, route, scope]) => [
      firstCode(method),
      firstCode(route),
      firstCode(scope),
    ]);
    const code = ROUTES.map((r) => [r.method, r.path, r.scope]);
    expect([...listed].sort()).toEqual([...code].sort());
  });

  it('lists every environment variable with the default the code uses, and no other', () => {
    const defaults: Record<string, string> = {
      [ENV.port]: String(DEFAULT_LOCAL_SETTINGS.port),
      [ENV.localDynamodbPort]: String(DEFAULT_LOCAL_SETTINGS.dynamodbPort),
      [ENV.localDataDir]: DEFAULT_LOCAL_SETTINGS.dataDir,
      [ENV.region]: DEFAULT_SETTINGS.region,
      [ENV.authCacheTtlSeconds]: String(DEFAULT_SETTINGS.authCacheTtlSeconds),
      [ENV.workspaceCacheTtlSeconds]: String(DEFAULT_SETTINGS.workspaceCacheTtlSeconds),
      [ENV.decisionRetentionDays]: String(DEFAULT_SETTINGS.decisionRetentionDays),
      [ENV.accessTableName]: DEFAULT_SETTINGS.accessTableName,
      [ENV.decisionsTableName]: DEFAULT_SETTINGS.decisionsTableName,
      [ENV.dynamodbRequestTimeoutMs]: String(DEFAULT_SETTINGS.dynamodbRequestTimeoutMs),
      [ENV.metricsDisabled]: String(!DEFAULT_SETTINGS.metricsEnabled),
      [ENV.logLevel]: DEFAULT_SETTINGS.logLevel,
      [ENV.stage]: DEFAULT_STAGE,
      [ENV.stackName]: stackNameFor('<stage>'),
    };
    const rows = tableUnder('Configuration').map(([name, fallback]) => [
      firstCode(name),
      firstCode(fallback) ?? fallback,
    ]);
    expect(rows.map(([name]) => name).sort()).toEqual(Object.values(ENV).sort());
    for (const [name, fallback] of rows) {
      if (name! in defaults) expect([name, fallback]).toEqual([name, defaults[name!]]);
    }
  });

  it('gives the defaults of the stack settings that cdk.json holds', () => {
    const { context } = JSON.parse(readFileSync(path.join(root, 'cdk.json'), 'utf8')) as {
      context: Record<string, unknown>;
    };
    for (const [key, value] of Object.entries(context)) {
      expect([key, readme.includes(`\`${key}\` (\`${String(value)}\``)]).toEqual([key, true]);
    }
  });

  it('links every guide in docs/', () => {
    for (const file of readdirSync(path.join(root, 'docs'))) {
      expect([file, readme.includes(`](docs/${file})`)]).toEqual([file, true]);
    }
  });
});
