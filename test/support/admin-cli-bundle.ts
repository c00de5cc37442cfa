// The admin CLI as one JavaScript file, built once per test run (global-setup.ts) and run by runAdmin (admin-cli.ts):
// the suite starts the CLI about 200 times, and each start through tsx's loader hooks took about twice the CPU of
// the same code bundled (0.8 s against 0.4 s here). esbuild compiles TypeScript as tsx does; the packages stay
// outside the bundle, loaded from node_modules as `npm run admin` loads them. The tests that run the CLI exactly as
// `npm run admin` does (admin-cli-pipe.test.ts, local-mode-leftover.test.ts) still start bin/admin.ts through tsx.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { ESBUILD_TARGET } from '../../lib/lambda-bundling';

const repo = path.resolve(__dirname, '..', '..');
/** Inside the repository, so that the bundle's packages resolve from its node_modules (a cache folder npm ignores). */
const folder = path.join(repo, 'node_modules', '.cache', 'signal-analysis-service-tests');

export async function buildAdminCli(): Promise<string> {
  mkdirSync(folder, { recursive: true });
  // One file per run: runs side by side (another checkout's CI, a second terminal) never share one.
  const outfile = path.join(folder, `admin-cli-${process.pid}.cjs`);
  await build({
    entryPoints: [path.join(repo, 'bin', 'admin.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: ESBUILD_TARGET,
    packages: 'external',
    logLevel: 'error',
  });
  return outfile;
}

export function removeAdminCli(file: string | undefined): void {
  if (file) rmSync(file, { force: true });
}

/** The run's own compile cache (NODE_COMPILE_CACHE), beside its bundle: each run's bundle is a new file to it. */
export const compileCacheDir = () => path.join(folder, `compile-cache-${process.pid}`);

export function removeCompileCache(): void {
  rmSync(compileCacheDir(), { recursive: true, force: true });
}
