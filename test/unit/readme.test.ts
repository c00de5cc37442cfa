// The README's tables hold what the code holds: every route, every variable with its default (and every variable any
// code reads), every stack setting (docs/deploy.md's too), every admin command, and a link to every guide in docs/;
// and every source file the README and docs/ name exists.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ROUTES } from '../../lambdas/contract/routes';
import {
  DEFAULT_LOCAL_SETTINGS,
  DEFAULT_SETTINGS,
  DEFAULT_STAGE,
  DEFAULT_TOOL_SETTINGS,
  ENV,
  stackNameFor,
} from '../../lambdas/contract/settings';
import { CONTEXT_DEFAULTS } from '../../lib/stack-context';

const root = path.resolve(__dirname, '../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** The rows of the first table under a `## heading`, as cells. */
function tableUnder(heading: string, text = readme): string[][] {
  const section = text.slice(text.indexOf(`\n## ${heading}\n`));
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
      [ENV.dataDir]: DEFAULT_TOOL_SETTINGS.dataDir,
      [ENV.languageSampleDir]: DEFAULT_TOOL_SETTINGS.languageSampleDir,
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

  // Every key and its default is in docs/deploy.md's table (below); the README names a few in passing.
  it('gives the defaults of the stack settings it names as lib/stack-context.ts holds them', () => {
    const stated = [...readme.matchAll(/`(\w+)` \(`([^`]*)`/g)].filter(([, key]) => key in CONTEXT_DEFAULTS);
    expect(stated.length).toBeGreaterThanOrEqual(1);
    for (const [, key, value] of stated) expect([key, value]).toEqual([key, String(CONTEXT_DEFAULTS[key])]);
  });

  it('names every variable any code reads, and reads each variable of its table only through settings.ts', () => {
    const named = new Set([...readme.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
    const readers = new Map<string, Set<string>>();
    const envKeys = new Map(Object.entries(ENV));
    for (const file of ['lambdas', 'lib', 'bin'].flatMap(sourceFiles)) {
      const text = readFileSync(path.join(root, file), 'utf8');
      const names = [
        ...[...text.matchAll(/\benv(?:\.|\[['"])([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]),
        ...[...text.matchAll(/\benv\[ENV\.(\w+)\]/g)].map((m) => envKeys.get(m[1]) ?? m[1]),
      ];
      for (const name of names) (readers.get(name) ?? readers.set(name, new Set()).get(name)!).add(file);
    }
    expect([...readers.keys()].filter((name) => !named.has(name))).toEqual([]);
    // The table's variables are parsed in one place: elsewhere the environment is handed to a parser whole.
    const tabled = new Set<string>(Object.values(ENV));
    const bypassing = [...readers].flatMap(([name, files]) =>
      tabled.has(name)
        ? [...files].filter((f) => f !== 'lambdas/contract/settings.ts').map((f) => `${f}: ${name}`)
        : [],
    );
    expect(bypassing).toEqual([]);
  });

  it('lists every admin command in the CLI table (docs/operations.md) and the usage text, and no other', () => {
    const commands = adminCommands();
    expect(commands.length).toBeGreaterThanOrEqual(16);
    const operations = readFileSync(path.join(root, 'docs/operations.md'), 'utf8');
    const listed = new Set(
      tableUnder('Admin CLI', operations).flatMap(([cell]) =>
        [...cell.matchAll(/`([^`]+)`/g)].map((m) => commandOf(m[1])),
      ),
    );
    expect([...listed].sort()).toEqual([...commands].sort());
    const usage = readFileSync(path.join(root, 'bin/admin.ts'), 'utf8');
    expect(commands.filter((c) => !new RegExp(`\\n  ${c}( |\\n)`).test(usage))).toEqual([]);
  });

  it('links every guide in docs/', () => {
    for (const file of readdirSync(path.join(root, 'docs'))) {
      expect([file, readme.includes(`](docs/${file})`)]).toEqual([file, true]);
    }
  });
});

describe('docs/deploy.md', () => {
  it('gives every stack setting with the default lib/stack-context.ts holds', () => {
    const guide = readFileSync(path.join(root, 'docs/deploy.md'), 'utf8');
    const rows = tableUnder('Context (`-c key=value`; defaults in `lib/stack-context.ts`)', guide).map(
      ([key, fallback]) => [firstCode(key), firstCode(fallback)],
    );
    const documented = rows.filter(([key]) => key! in CONTEXT_DEFAULTS).sort();
    expect(documented).toEqual(
      Object.entries(CONTEXT_DEFAULTS)
        .map(([key, value]) => [key, String(value)])
        .sort(),
    );
  });
});

describe('the README and docs/', () => {
  it('quote the default of a variable where they name it with one, as settings.ts holds it', () => {
    const defaults: Record<string, number> = {
      [ENV.authCacheTtlSeconds]: DEFAULT_SETTINGS.authCacheTtlSeconds,
      [ENV.workspaceCacheTtlSeconds]: DEFAULT_SETTINGS.workspaceCacheTtlSeconds,
      [ENV.decisionRetentionDays]: DEFAULT_SETTINGS.decisionRetentionDays,
      [ENV.dynamodbRequestTimeoutMs]: DEFAULT_SETTINGS.dynamodbRequestTimeoutMs,
      [ENV.port]: DEFAULT_LOCAL_SETTINGS.port,
      [ENV.localDynamodbPort]: DEFAULT_LOCAL_SETTINGS.dynamodbPort,
    };
    const quoted: [string, string, number][] = [];
    for (const file of ['README.md', ...guides()]) {
      const text = readFileSync(path.join(root, file), 'utf8');
      // `NAME` (default 30 ...), `NAME` (30 s by default), `NAME` (default 8000)
      for (const [, name, value] of text.matchAll(
        /`([A-Z][A-Z0-9_]+)` \((?:default )?([\d,]+)(?: \w+)?(?: by default)?[;),]/g,
      ))
        if (name in defaults) quoted.push([file, name, Number(value.replace(/,/g, ''))]);
    }
    expect(quoted.length).toBeGreaterThanOrEqual(4);
    expect(quoted.filter(([, name, value]) => value !== defaults[name])).toEqual([]);
  });

  const files = ['README.md', ...guides()];
  const tracked = ['lambdas', 'lib', 'bin', 'test', 'sdk/src'].flatMap(sourceFiles);

  it.each(files)('%s names only source files that exist', (file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    const missing: string[] = [];
    // A paragraph naming a file "in git history" speaks of one removed on purpose.
    for (const paragraph of text.split(/\n\s*\n/)) {
      if (/git (history|show)/.test(paragraph)) continue;
      for (const [name] of paragraph.matchAll(/[\w.*<>/-]+\.ts\b/g)) {
        const pattern = new RegExp(
          `(^|/)${name
            .replace(/^\//, '')
            .replace(/\./g, '\\.')
            .replace(/\*/g, '[^/]*')
            .replace(/<[^>]+>/g, '[^/]+')}$`,
        );
        if (!tracked.some((f) => pattern.test(f))) missing.push(name);
      }
    }
    expect(missing).toEqual([]);
  });
});

/** The .ts files under a directory of the repository, repository-relative. */
function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const file = `${dir}/${name}`;
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path.join(root, file)).isDirectory()) return sourceFiles(file);
    return file.endsWith('.ts') || file.endsWith('.mjs') ? [file] : [];
  });
}

/** The keys of the admin CLI's command table (`COMMANDS` in bin/admin.ts), read from its source. */
function adminCommands(): string[] {
  const file = path.join(root, 'bin/admin.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  let table: ts.ObjectLiteralExpression | undefined;
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === 'COMMANDS' && node.initializer)
      if (ts.isObjectLiteralExpression(node.initializer)) table = node.initializer;
    node.forEachChild(visit);
  };
  visit(source);
  if (!table) throw new Error('bin/admin.ts has no COMMANDS table');
  return table.properties.map((p) => (p.name && ts.isStringLiteral(p.name) ? p.name.text : p.name!.getText(source)));
}

/** The command of a usage line: its words before the first option (`key create --partner ...` → `key create`). */
const commandOf = (usage: string) => {
  const words: string[] = [];
  for (const word of usage.split(/\s+/)) {
    if (!/^[a-z][a-z-]*$/.test(word)) break;
    words.push(word);
  }
  return words.join(' ');
};

/** docs/*.md, repository-relative. */
function guides(): string[] {
  return readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
}
