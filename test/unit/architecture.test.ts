// The import graph, read from the sources: dependencies point one way, the pure modules stay pure, nothing cycles,
// and only the Lambda entry files read the environment.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

// test/support too: a bin script may run a harness that lives with the tests (bin/learning-faults.ts).
const FILES = [...sources('lambdas'), ...sources('lib'), ...sources('bin'), ...sources('test/support')];
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;

/** Repository-relative files and package names each file imports (type-only imports included: they still couple). */
function importsOf(file: string): { local: string[]; packages: string[] } {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const local: string[] = [];
  const packages: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    if (spec.startsWith('.') && spec.endsWith('.json')) {
      // A data file (the engine's lexicon index): it must exist, and imports nothing.
      if (!existsSync(resolve(ROOT, dirname(file), spec))) local.push(`${spec} (unresolved)`);
    } else if (spec.startsWith('.')) {
      const base = relative(ROOT, resolve(ROOT, dirname(file), spec));
      local.push(FILES.find((f) => f === `${base}.ts` || f === `${base}/index.ts`) ?? `${base} (unresolved)`);
    } else packages.push(spec);
  }
  return { local, packages };
}

const GRAPH = new Map(FILES.map((f) => [f, importsOf(f)]));

function reachable(from: string): Set<string> {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    for (const next of GRAPH.get(stack.pop()!)?.local ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        stack.push(next);
      }
    }
  }
  return seen;
}

it('resolves every relative import to a source file', () => {
  const unresolved = [...GRAPH].flatMap(([f, { local }]) =>
    local.filter((l) => l.endsWith('(unresolved)')).map((l) => `${f} -> ${l}`),
  );
  expect(unresolved).toEqual([]);
});

it('keeps lambdas/ free of imports from lib/ and bin/', () => {
  const wrong = [...GRAPH]
    .filter(([f]) => f.startsWith('lambdas/'))
    .flatMap(([f, { local }]) => local.filter((l) => !l.startsWith('lambdas/')).map((l) => `${f} -> ${l}`));
  expect(wrong).toEqual([]);
});

it('keeps the contract module pure: it imports only itself and no package', () => {
  const contract = [...GRAPH].filter(([f]) => f.startsWith('lambdas/contract/'));
  expect(contract.length).toBeGreaterThan(0);
  for (const [file, { local, packages }] of contract) {
    expect({ file, local: local.filter((l) => !l.startsWith('lambdas/contract/')), packages }).toEqual({
      file,
      local: [],
      packages: [],
    });
  }
});

it('keeps the domain free of the AWS SDK, Powertools, middy and the HTTP edge', () => {
  for (const [file] of [...GRAPH].filter(([f]) => f.startsWith('lambdas/domain/'))) {
    const reached = [file, ...reachable(file)];
    const outside = reached.filter((f) => !f.startsWith('lambdas/domain/') && !f.startsWith('lambdas/contract/'));
    const packages = reached.flatMap((f) => GRAPH.get(f)?.packages ?? []).filter((p) => !p.startsWith('node:'));
    expect({ file, outside, packages: packages.filter((p) => p !== 'valibot') }).toEqual({
      file,
      outside: [],
      packages: [],
    });
  }
});

it('builds the stack from pure modules only: nothing it reaches constructs a logger or a database client', () => {
  const reached = [...reachable('lib/stack.ts'), ...reachable('lib/app.ts')];
  const runtime = reached.filter((f) => f.startsWith('lambdas/') && !f.startsWith('lambdas/contract/'));
  expect(runtime).toEqual([]);
});

it('has no import cycle', () => {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const next of GRAPH.get(file)?.local ?? []) visit(next, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of FILES) visit(file, []);
  expect(cycles).toEqual([]);
});

it("reads the environment in lambdas/ only in the Lambda entry files and the bundles' credential reader", () => {
  const readers = FILES.filter(
    (f) => f.startsWith('lambdas/') && /process\.env\b/.test(readFileSync(join(ROOT, f), 'utf8')),
  );
  const allowed = (f: string) => f.endsWith('/handler.ts') || f === 'lambdas/stores/lambda-credentials.ts';
  expect(readers.filter((f) => !allowed(f))).toEqual([]);
});

it('retries and waits in lambdas/ only through the one retry policy (lambdas/domain/retry.ts)', () => {
  const LOOP_OR_WAIT = /\bsetTimeout\s*\(|for \(let (?:attempt|retry|round)\b/;
  const own = FILES.filter(
    (f) =>
      f.startsWith('lambdas/') &&
      f !== 'lambdas/domain/retry.ts' &&
      LOOP_OR_WAIT.test(readFileSync(join(ROOT, f), 'utf8')),
  );
  expect(own).toEqual([]);
});

describe('layers: routes translate HTTP, the application holds the use cases, stores only persist', () => {
  const LAYERS = ['contract', 'domain', 'http', 'application', 'stores'];
  const layerOf = (file: string): string => {
    const [top, second] = file.split('/');
    if (top !== 'lambdas') return top;
    if (!file.slice('lambdas/'.length).includes('/')) return 'wiring'; // dependencies.ts, service.ts, observability.ts
    return LAYERS.includes(second) ? second : 'routes';
  };
  /** What each layer may import from lambdas/ (besides itself). */
  const ALLOWED: Record<string, string[]> = {
    contract: [],
    domain: ['contract'],
    application: ['domain', 'contract'],
    stores: ['domain', 'contract'],
    http: ['application', 'domain', 'contract', 'wiring'],
    routes: ['http', 'application', 'domain', 'contract', 'wiring'],
  };

  it.each(Object.keys(ALLOWED))('%s imports only the layers below it', (layer) => {
    const wrong = [...GRAPH]
      .filter(([f]) => f.startsWith('lambdas/') && layerOf(f) === layer)
      .flatMap(([f, { local }]) =>
        local.filter((l) => layerOf(l) !== layer && !ALLOWED[layer].includes(layerOf(l))).map((l) => `${f} -> ${l}`),
      );
    expect(wrong).toEqual([]);
  });

  it('keeps each route folder to itself: a use case two routes share lives in lambdas/application', () => {
    const folderOf = (f: string) => f.split('/')[1];
    const wrong = [...GRAPH]
      .filter(([f]) => f.startsWith('lambdas/') && layerOf(f) === 'routes')
      .flatMap(([f, { local }]) =>
        local.filter((l) => layerOf(l) === 'routes' && folderOf(l) !== folderOf(f)).map((l) => `${f} -> ${l}`),
      );
    expect(wrong).toEqual([]);
  });

  it('keeps the application free of the AWS SDK, middy and Powertools', () => {
    const packages = [...GRAPH]
      .filter(([f]) => layerOf(f) === 'application')
      .flatMap(([f, { packages: p }]) =>
        p.filter((name) => !name.startsWith('node:')).map((name) => `${f} -> ${name}`),
      );
    expect(packages).toEqual([]);
  });
});
