// docs/partners.md against the code: partners branch on the status and error code the guide's error table gives,
// and wait the Retry-After it names, so a code the service answers that the table lacks (or a wrong status beside
// it) misleads every integration; the same for the body limit beside 413 and the SDK tarball's name. Also: every
// `npm run <script>` the README and docs tell someone to run exists, and every admin CLI line they give names a command
// and options the CLI has (test/e2e/partner-guide-examples.test.ts runs the guide's curl and SDK examples).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ERROR_STATUS, type ErrorCode, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../lambdas/contract/errors';
import { MAX_BODY_BYTES } from '../../lambdas/http/api-handler';
import { BATCH_BODY } from '../../lambdas/analyze-batch/batch-envelope';
import { IMPORT_BODY } from '../../lambdas/http/import-envelope';
import { POLICY_MAX_BYTES } from '../../lambdas/http/policy-schema';

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

  it("gives each route's body limit beside 413 PAYLOAD_TOO_LARGE", () => {
    const row = rows.find((r) => r.code === ('PAYLOAD_TOO_LARGE' satisfies ErrorCode))!.text;
    const size = (bytes: number) => (bytes % 1_048_576 === 0 ? `${bytes / 1_048_576} MiB` : `${bytes / 1024} KiB`);
    expect(row).toContain(`${size(MAX_BODY_BYTES)} for analyze and feedback`);
    expect(BATCH_BODY.bodyBytes).toBe(IMPORT_BODY.bodyBytes);
    expect(row).toContain(`${size(BATCH_BODY.bodyBytes)} for a batch or an import`);
    expect(row).toContain(`${size(POLICY_MAX_BYTES)} for a policy`);
  });

  it('names the SDK tarball sdk/package.json makes', () => {
    const { version } = JSON.parse(read('sdk/package.json')) as { version: string };
    for (const file of ['docs/partners.md', 'sdk/README.md']) {
      const named = [...read(file).matchAll(/signal-analysis-sdk-([\d.]+)\.tgz/g)].map((m) => m[1]);
      expect([file, named.length > 0 && named.every((v) => v === version)]).toEqual([file, true]);
    }
  });
});

describe('README.md and docs/', () => {
  const DOCS = ['README.md', 'docs/partners.md', 'docs/operations.md', 'docs/deploy.md'];

  it('give admin CLI command lines whose command and options the CLI has', () => {
    const usage = read('bin/admin.ts');
    /** The usage text of a command: its line and the deeper-indented lines under it. */
    const usageOf = (command: string) => {
      const start = usage.search(new RegExp(`\\n  ${command}( |\\n)`));
      if (start < 0) return undefined;
      const lines = usage.slice(start + 1).split('\n');
      const end = lines.findIndex((line, i) => i > 0 && !/^ {3,}/.test(line));
      return lines.slice(0, end).join('\n');
    };
    const lines: string[] = [];
    for (const file of DOCS) {
      const text = read(file);
      // In code blocks (up to a comment), in inline code (a span may wrap), and the table of --json outputs.
      for (const [, args] of text.matchAll(/^\s*npm run --silent admin -- (.*?)(?:\s+#.*)?$/gm)) lines.push(args);
      for (const [, args] of text.matchAll(/`npm run --silent admin -- ([^`]+)`/g))
        lines.push(args.replace(/\s+/g, ' '));
    }
    const section = read('docs/operations.md').split('\n## Admin CLI\n')[1].split('\n## ')[0];
    for (const row of section.split('\n').filter((line) => line.startsWith('| `'))) {
      for (const [, span] of row.split(' | ')[0].matchAll(/`([^`]+)`/g)) lines.push(span);
    }
    expect(lines.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    for (const line of lines.filter((l) => /^(--aws )?[a-z]/.test(l))) {
      const words = line.split(/\s+/).filter((w) => w !== '--aws' && w !== '--json');
      const command =
        words
          .slice(
            0,
            words.findIndex((w) => !/^[a-z][a-z-]*$/.test(w)),
          )
          .join(' ') || words.join(' ');
      const text = usageOf(command);
      if (text === undefined) {
        wrong.push(`${line}: no command "${command}"`);
        continue;
      }
      for (const [flag] of line.matchAll(/--[a-z][a-z-]*/g))
        if (!['--aws', '--json'].includes(flag) && !new RegExp(`${flag}\\b(?!-)`).test(text))
          wrong.push(`${line}: ${command} takes no ${flag}`);
    }
    expect(wrong).toEqual([]);
  });

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
