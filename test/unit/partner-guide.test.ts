// docs/partners.md against the code: partners branch on the status and error code the guide's error table gives,
// and wait the Retry-After it names, so a code the service answers that the table lacks (or a wrong status beside
// it) misleads every integration. Also: every `npm run <script>` the README and docs tell someone to run exists.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ERROR_STATUS, type ErrorCode, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../lambdas/contract/errors';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The rows of the Markdown table right under `## <heading>` whose first cell is a status code. */
function errorTableRows(doc: string, heading: string): Array<{ status: number; code: string; text: string }> {
  const start = doc.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no "## ${heading}" section`);
  const next = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, next < 0 ? undefined : next);
  const rows: Array<{ status: number; code: string; text: string }> = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const match = /^(\d{3})$/.exec(cells[1] ?? '');
    const code = /^`([A-Z_]+)`$/.exec(cells[2] ?? '');
    if (match && code) rows.push({ status: Number(match[1]), code: code[1], text: line });
  }
  return rows;
}

describe('docs/partners.md', () => {
  const guide = read('docs/partners.md');
  const rows = errorTableRows(guide, 'Errors');

  it('lists every error code the service answers, once, with the status the service gives it', () => {
    const documented = Object.fromEntries(rows.map((r) => [r.code, r.status]));
    expect(rows.map((r) => r.code).sort()).toEqual([...new Set(rows.map((r) => r.code))].sort());
    expect(documented).toEqual(ERROR_STATUS);
  });

  it('names the Retry-After the service sends with 503 SERVICE_UNAVAILABLE', () => {
    const row = rows.find((r) => r.code === ('SERVICE_UNAVAILABLE' satisfies ErrorCode));
    expect(row?.text).toContain(`currently ${UNAVAILABLE_RETRY_AFTER_SECONDS})`);
    expect(guide).toContain(`\`Retry-After: ${UNAVAILABLE_RETRY_AFTER_SECONDS}\``);
  });
});

describe('README.md and docs/', () => {
  it('tell readers to run only npm scripts that exist', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const files = ['README.md', 'docs/partners.md', 'docs/operations.md', 'docs/performance.md', 'docs/deploy.md'];
    const mentioned = new Set<string>();
    for (const file of files) {
      for (const m of read(file).matchAll(/npm (?:run (?:--silent )?([a-z][\w:-]*)|(start|test)\b)/g))
        mentioned.add(m[1] ?? m[2]);
    }
    expect(mentioned.size).toBeGreaterThan(5);
    expect([...mentioned].filter((name) => !scripts.includes(name))).toEqual([]);
  });
});

describe('citations in the code', () => {
  const sources = ['lambdas', 'lib', 'bin', 'sdk/src', 'test'].flatMap((dir) =>
    (readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .map((file) => path.join(dir, file)),
  );
  // A comment wrapped over lines reads as one line, so a citation split by the wrap is still found.
  const text = (file: string) => read(file).replace(/\n\s*(?:\/\/|\*)\s*/g, ' ');

  it('name our own guides, never sections of a document the repository does not hold', () => {
    const self = path.relative(ROOT, __filename);
    const outside = sources.filter((file) => file !== self && /contract sections? \d|API-CONTRACT/i.test(text(file)));
    expect(outside).toEqual([]);
  });

  it('name sections that exist in the guide they cite', () => {
    const headings = new Map<string, string[]>();
    const missing: string[] = [];
    for (const file of sources) {
      for (const [, doc, section] of text(file).matchAll(/(docs\/[\w-]+\.md),? "([^"]+)"/g)) {
        if (!headings.has(doc))
          headings.set(
            doc,
            read(doc)
              .split('\n')
              .filter((line) => line.startsWith('#')),
          );
        if (!headings.get(doc)!.some((h) => h.replace(/^#+ /, '').startsWith(section)))
          missing.push(`${file}: ${doc} "${section}"`);
      }
    }
    expect(sources.length).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});
