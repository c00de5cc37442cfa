// How every Lambda is bundled, in one place: lib/stack.ts hands it to NodejsFunction (which runs esbuild with the
// repository root as its working directory), and the bench and the bundle tests run esbuild with the same options.
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { BuildOptions } from 'esbuild';

/**
 * Every function's memory. Lambda's CPU share grows with memory, and these functions are CPU-bound for their few
 * milliseconds (module init of a ~350 KiB bundle, SHA-256, parsing up to 256 KiB of JSON). The authorizer runs on
 * every request, so its cold start and latency add to every call; a quarter of a vCPU (128 MB) would stretch both,
 * while at 512 MB the shorter duration keeps the cost per request close. The bench's cost model bills at this size.
 */
export const LAMBDA_MEMORY_MB = 512;

/**
 * The V8 heap bounds every Lambda runs with (its NODE_OPTIONS), sized for LAMBDA_MEMORY_MB: old space at most
 * 320 MB and each of the young generation's semi-spaces at most 16 MB (the young generation is three of them, 48 MB),
 * which leaves room in 512 MB for code, buffers and the runtime. Without them Node.js 24 sizes both from the memory
 * it sees (up to 64 MB semi-spaces on a large machine) and keeps the pages it grew into committed: the soak's curve in
 * docs/operations.md. `npm run soak` starts local mode's API with the same flags.
 */
export const LAMBDA_NODE_OPTIONS = '--max-old-space-size=320 --max-semi-space-size=16';

/** Matches LAMBDA_RUNTIME in lib/stack.ts (Node.js 24). */
export const ESBUILD_TARGET = 'node24';

/**
 * Modules swapped for smaller ones in the bundles. Paths are relative to the repository root, where esbuild runs.
 * The SDK's default credential chain becomes the environment credentials Lambda provides, and its event-stream codec
 * (no DynamoDB operation streams events) a stub that says so (see each module's header).
 */
export const LAMBDA_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': './lambdas/stores/lambda-credentials.ts',
  '@smithy/core/event-streams': './lambdas/stores/no-event-streams.ts',
};

/**
 * Modules a bundle loads only when it first needs them, shipped beside its index.js as bundles of their own
 * (`<name>.js`, built with the same options) instead of inside it: keyed by the path the code requires them by, to
 * their source. The X-Ray client (lambdas/xray-client.ts), needed on a container's first traced request only, would
 * otherwise add about 65 KB and a tenth of module init to every function, and turn the fallback's 57 KB into 250 KB.
 */
export const LAZY_BUNDLES: Readonly<Record<string, string>> = {
  './xray-client': 'lambdas/xray-client.ts',
};

/** The esbuild options NodejsFunction ends up with, for tools that call esbuild directly (from any directory). */
export const LAMBDA_ESBUILD_OPTIONS = {
  bundle: true,
  minify: true,
  format: 'cjs',
  platform: 'node',
  target: ESBUILD_TARGET,
  // ESM builds of the AWS SDK are smaller once minified (about 343 KiB against 543 KiB).
  mainFields: ['module', 'main'],
  alias: Object.fromEntries(
    Object.entries(LAMBDA_ALIASES).map(([name, file]) => [name, path.resolve(__dirname, '..', file)]),
  ),
  external: Object.keys(LAZY_BUNDLES),
} satisfies BuildOptions;

/** The file a lazy bundle is shipped as, beside index.js: `./xray-client` -> `xray-client.js`. */
export const lazyBundleFile = (importPath: string) => `${path.basename(importPath)}.js`;

export interface LambdaBundle {
  /** The function's name in the stack: `Authorizer`, `Fallback`, or a route's id (lambdas/contract/routes.ts). */
  id: string;
  /** The bundled `index.js` in the cloud assembly. */
  file: string;
}

/** The bundle of every Lambda in a synthesized cloud assembly, found through the template's asset metadata. */
export function lambdaBundles(assemblyDir: string): LambdaBundle[] {
  const templateFile = readdirSync(assemblyDir).find((f) => f.endsWith('.template.json'));
  if (!templateFile) throw new Error(`no template in ${assemblyDir}`);
  const template = JSON.parse(readFileSync(path.join(assemblyDir, templateFile), 'utf8')) as {
    Resources: Record<
      string,
      { Type: string; Properties?: { Code?: { S3Key?: string } }; Metadata?: Record<string, string> }
    >;
  };
  const bundles: LambdaBundle[] = [];
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    // The stack names each function `${id}Function`; CDK appends an 8-digit hash to the logical id.
    const name = /^(\w+?)Function[0-9A-F]{8}$/.exec(logicalId);
    const assetDir = resource.Metadata?.['aws:asset:path'];
    const key = resource.Properties?.Code?.S3Key;
    if (!name || !assetDir || !key) continue;
    // The function's code is `<asset hash>.zip`; its metadata names the asset directory with the same hash.
    if (!assetDir.endsWith(key.replace(/\.zip$/, '')))
      throw new Error(`${logicalId}: asset ${assetDir} does not match ${key}`);
    bundles.push({ id: name[1], file: path.join(assemblyDir, assetDir, 'index.js') });
  }
  if (bundles.length === 0) throw new Error(`no bundled Lambda in ${assemblyDir} (synthesized without bundling?)`);
  return bundles;
}
