// `npm run --silent frames -- <function> '<frame>' ...`: where the frames of a `request failed` log line point in the
// source (docs/operations.md, "Runbooks"). The Lambdas ship minified bundles without source maps (a map, loaded or
// not, would weigh on every cold start or every package), so a frame reads `at J (/var/task/index.js:3:213)`. Run at
// the commit the stack was deployed from, this rebuilds that function's bundle with the same esbuild options (the
// bundle test checks the rebuild is byte for byte what `cdk synth` ships) and maps each frame through its source map.
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { LAMBDA_ESBUILD_OPTIONS } from '../lib/lambda-bundling';
import { AUTHORIZER_ENTRY, FALLBACK_ENTRY, ROUTES } from '../lambdas/contract/routes';

const REPO_ROOT = path.resolve(__dirname, '..');

/** The function's entry module by its name in the stack: `Authorizer`, `Fallback` or a route's id. */
const ENTRIES: Record<string, string> = {
  Authorizer: AUTHORIZER_ENTRY,
  Fallback: FALLBACK_ENTRY,
  ...Object.fromEntries(ROUTES.map((r) => [r.id, r.entry])),
};

/** A frame's place in index.js: `at name (/var/task/index.js:3:213)` or `at /var/task/index.js:3:213`. */
const FRAME = /index\.js:(\d+):(\d+)\)?$/;

/**
 * The function's bundle built again, its code and its source map: `external` writes the map beside the code without
 * naming it in the code, so the code is what `cdk synth` ships.
 */
async function rebuild(functionName: string): Promise<{ code: string; map: SourceMap }> {
  const entry = ENTRIES[functionName];
  if (!entry) throw new Error(`no function ${functionName}: one of ${Object.keys(ENTRIES).join(', ')}`);
  const out = await build({
    ...LAMBDA_ESBUILD_OPTIONS,
    entryPoints: [path.join(REPO_ROOT, entry)],
    absWorkingDir: REPO_ROOT,
    outfile: path.join(REPO_ROOT, 'index.js'),
    sourcemap: 'external',
    sourcesContent: false,
    write: false,
    logLevel: 'silent',
  });
  const code = out.outputFiles.find((f) => f.path.endsWith('.js'));
  const map = out.outputFiles.find((f) => f.path.endsWith('.map'));
  if (!code || !map) throw new Error('esbuild wrote no bundle or no source map');
  return { code: code.text, map: new SourceMap(JSON.parse(map.text) as SourceMapPayload) };
}

/** Each frame with the source place it came from (line and column 1-based, as V8 prints them), or as it was. */
export async function resolveFrames(functionName: string, frames: readonly string[]): Promise<string[]> {
  const { map } = await rebuild(functionName);
  return frames.map((frame) => {
    const m = FRAME.exec(frame.trim());
    if (!m) return frame;
    const found = map.findEntry(Number(m[1]) - 1, Number(m[2]) - 1);
    if (!('originalSource' in found) || !found.originalSource) return `${frame}  (no source place)`;
    const source = path.relative(REPO_ROOT, path.resolve(REPO_ROOT, found.originalSource));
    return `${frame}  -> ${source}:${found.originalLine + 1}:${found.originalColumn + 1}`;
  });
}

/** The rebuilt bundle's code, the one the frames are mapped through, to compare with a synthesized index.js. */
export const rebuiltCode = async (functionName: string): Promise<string> => (await rebuild(functionName)).code;

if (require.main === module) {
  const [name, ...frames] = process.argv.slice(2);
  if (!name || frames.length === 0) {
    console.error("usage: npm run --silent frames -- <function: Analyze, Authorizer, ...> '<frame>' ...");
    process.exit(2);
  }
  resolveFrames(name, frames).then(
    (lines) => console.log(lines.join('\n')),
    (err: Error) => {
      console.error(`error: ${err.message}`);
      process.exit(1);
    },
  );
}
