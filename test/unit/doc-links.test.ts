// Every relative link of the README, the changelog and docs/ reaches a file the repository holds and, where it names a
// section (`file.md#section`, `#section`), a heading of that file, as GitHub renders its anchors: guides are split and
// sections renamed, and a link that lands at the top of a 1,400-line guide is one nobody follows.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const docs = readdirSync(path.join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const files = ['README.md', 'CHANGELOG.md', ...docs];

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped but `-` and `_`, spaces to `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks); a repeated heading's gets `-1`, `-2`, ... */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#+ (.+)$/gm)) {
    const anchor = anchorOf(heading);
    const n = seen.get(anchor) ?? 0;
    seen.set(anchor, n + 1);
    anchors.add(n === 0 ? anchor : `${anchor}-${n}`);
  }
  return anchors;
}

describe('links between the guides', () => {
  it('makes anchors as GitHub does', () => {
    expect(anchorOf('Load test: `npm run load`')).toBe('load-test-npm-run-load');
    expect(anchorOf('Workspaces (`npm run bench -- --only=workspace`)')).toBe(
      'workspaces-npm-run-bench------onlyworkspace',
    );
    expect(anchorOf("Warm: the global engine's band as evidence (band31, left out)")).toBe(
      'warm-the-global-engines-band-as-evidence-band31-left-out',
    );
  });

  it.each(files)('%s links only to files and sections that exist', (file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
      const [linked, section] = target.split('#', 2);
      const resolved = linked ? path.posix.normalize(path.posix.join(path.posix.dirname(file), linked)) : file;
      if (!existsSync(path.join(root, resolved))) broken.push(`${target} (no such file)`);
      else if (section !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(section))
        broken.push(`${target} (no such section)`);
    }
    expect(broken).toEqual([]);
  });
});
