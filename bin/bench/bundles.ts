// Section "bundles": what `cdk synth` ships for each Lambda against a DocumentClient-only bundle.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  LAMBDA_ESBUILD_OPTIONS,
  LAMBDA_NODE_OPTIONS,
  LAZY_BUNDLES,
  lambdaBundles,
  lazyBundleFile,
} from '../../lib/lambda-bundling';
import { DEFAULT_SETTINGS, lambdaEnvironment } from '../../lambdas/contract/settings';
import type { Signal } from '../../lambdas/domain/signal';
import { type Figures, REPO_ROOT, median, progress } from './common';
import { makeEmails } from './emails';
import { ENGINE_LAMBDAS, benchFirstRequests, firstRequestSignal, isFirstRequestRoute } from './first-request';
import { scoreSignal } from '../../lambdas/domain/engine';
import type { Options } from './options';

/**
 * The reference bundles use the Lambdas' esbuild options (lib/lambda-bundling.ts) without their module aliases: the
 * DocumentClient with the SDK as it comes. The `_trimmed` reference keeps the aliases, for context.
 */
const { alias: LAMBDA_ALIAS, ...PLAIN_ESBUILD_OPTIONS } = LAMBDA_ESBUILD_OPTIONS;

const DOCCLIENT_ONLY_LAZY_ENTRY = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
let client;
export const handler = async (event) => {
  client ??= DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });
  return event.put ? client.send(new PutCommand(event.put)) : client.send(new GetCommand(event.get));
};
`;

const DOCCLIENT_ONLY_ENTRY = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });
export const handler = async (event) =>
  event.put ? client.send(new PutCommand(event.put)) : client.send(new GetCommand(event.get));
`;

/**
 * The environment the stack gives every Lambda (lib/stack.ts: `lambdaEnvironment()` with the default settings, and the
 * heap bounds), plus the region Lambda's runtime sets, and this machine's PATH: module init and the first request
 * (bin/bench/first-request.ts) are measured in what runs in production.
 */
const LAMBDA_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  AWS_REGION: DEFAULT_SETTINGS.region,
  ...lambdaEnvironment({ ...DEFAULT_SETTINGS, learningTableName: 'sas-learning' }),
  NODE_OPTIONS: LAMBDA_NODE_OPTIONS,
};

/**
 * Module init of a bundle: require() time in a fresh `node` process, the environment as the stack sets it. With
 * `firstCall`, the bundle is the scorer alone and the time of its first scoreSignal() follows, after a comma.
 */
function initTimeMs(file: string, firstCall?: { signal: Signal; now: string }): number[] {
  const call = firstCall
    ? `;const s=process.hrtime.bigint();m.scoreSignal(${JSON.stringify(firstCall.signal)},new Date(${JSON.stringify(firstCall.now)}));process.stdout.write(','+String(Number(process.hrtime.bigint()-s)/1e6))`
    : '';
  const code = `const t=process.hrtime.bigint();const m=require(${JSON.stringify(file)});process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))${call}`;
  const run = spawnSync(process.execPath, ['-e', code], {
    encoding: 'utf8',
    timeout: 20_000,
    env: LAMBDA_ENV,
  });
  const ms = run.stdout.split(',').map(Number);
  if (run.status !== 0 || ms.length === 0 || !ms.every(Number.isFinite))
    throw new Error(`loading ${file} failed: ${run.stderr.slice(-500)}`);
  return ms;
}

/** The part of the analyze bundle an input file belongs to (models, lexicon, engine code, our code, libraries). */
function partOf(input: string): string {
  // The lexicon, its first-word index (a data file, not a model) and the code that lists its patterns.
  if (/lambdas\/domain\/engine\/lexicon(-operations|-patterns)?\.ts$|lexicon-index\.json$/.test(input))
    return 'engine_lexicon';
  if (/lambdas\/domain\/engine\/[^/]+\.json$/.test(input)) return 'engine_models';
  if (/lambdas\/domain\/engine\//.test(input)) return 'engine_code';
  if (/^lambdas\//.test(input) || input.includes('/lambdas/')) return 'service_code';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (!m) return 'other';
  const pkg = m[1];
  if (pkg.startsWith('@aws-sdk/') || pkg.startsWith('@smithy/') || pkg.startsWith('@aws-crypto/')) return 'lib_aws_sdk';
  if (pkg.startsWith('@aws-lambda-powertools/')) return 'lib_powertools';
  if (pkg.startsWith('@middy/')) return 'lib_middy';
  if (pkg === 'valibot') return 'lib_valibot';
  return 'lib_other';
}

/** The analyze Lambda's bundle, built with the stack's options and a metafile: minified bytes per part. */
async function analyzeWeights(esbuild: typeof import('esbuild'), out: string): Promise<Figures> {
  const result = await esbuild.build({
    ...LAMBDA_ESBUILD_OPTIONS,
    entryPoints: [path.join(REPO_ROOT, 'lambdas/analyze/handler.ts')],
    outfile: path.join(out, 'analyze-weights', 'index.js'),
    nodePaths: [path.join(REPO_ROOT, 'node_modules')],
    absWorkingDir: REPO_ROOT,
    metafile: true,
    logLevel: 'silent',
  });
  const parts: Record<string, number> = {};
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs))
      parts[partOf(input)] = (parts[partOf(input)] ?? 0) + bytesInOutput;
  }
  const figures: Figures = {};
  for (const [part, bytes] of Object.entries(parts).sort((a, b) => b[1] - a[1]))
    figures[`weight_${part}_kib`] = Math.round((bytes / 1024) * 10) / 10;
  return figures;
}

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

export async function benchBundles(opts: Options): Promise<Figures> {
  const out = mkdtempSync(path.join(tmpdir(), 'sas-bench-synth-'));
  try {
    progress('  cdk synth (bundles every Lambda with esbuild) ...');
    const cdk = spawnSync(
      process.execPath,
      [require.resolve('aws-cdk/bin/cdk'), 'synth', '-q', '--no-notices', '-o', path.join(out, 'cdk.out')],
      {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        timeout: 180_000,
        env: { ...process.env, CDK_DISABLE_VERSION_CHECK: 'true' },
      },
    );
    if (cdk.status !== 0) throw new Error(`cdk synth failed: ${(cdk.stderr || cdk.stdout).slice(-1500)}`);
    const assembly = path.join(out, 'cdk.out');
    const bundles = lambdaBundles(assembly).map((b) => ({ name: snake(b.id), file: b.file }));
    // The lazy bundles beside each index.js (the same file in every asset): loaded on first need only, so measured
    // apart, as context, and outside the goals' worst ratios.
    const lazy = Object.keys(LAZY_BUNDLES).map((importPath) => ({
      name: `lazy_${snake(path.basename(importPath)).replace(/-/g, '_')}`,
      file: path.join(path.dirname(bundles[0].file), lazyBundleFile(importPath)),
    }));

    // The reference bundles, built with the stack's esbuild options (packages from the project's node_modules), and
    // the scorer alone (for its first-call figure).
    const esbuild = await import('esbuild');
    const build = async (
      name: string,
      source: string,
      plugins: import('esbuild').Plugin[] = [],
      alias = LAMBDA_ALIAS,
    ) => {
      const entry = path.join(out, `${name}-entry.ts`);
      writeFileSync(entry, source);
      const file = path.join(out, name, 'index.js');
      await esbuild.build({
        ...PLAIN_ESBUILD_OPTIONS,
        alias,
        entryPoints: [entry],
        outfile: file,
        nodePaths: [path.join(REPO_ROOT, 'node_modules')],
        plugins,
        logLevel: 'silent',
      });
      return { name, file };
    };
    const reference = await build('docclient_only', DOCCLIENT_ONLY_ENTRY, [], {});
    const lazyReference = await build('docclient_only_lazy_client', DOCCLIENT_ONLY_LAZY_ENTRY, [], {});
    const trimmedReference = await build('docclient_only_trimmed', DOCCLIENT_ONLY_ENTRY);
    const scorer = await build(
      'scorer',
      `export { scoreSignal } from ${JSON.stringify(path.join(REPO_ROOT, 'lambdas/domain/engine'))};\n`,
    );
    // What the analyze Lambda weighs without the decision engine (scorer, lexicon, spam model): the same entry with
    // the scorer module replaced by a stub that answers the first-request signal's assessment, computed here (so its
    // first request shows what analyze's costs without the engine's cold start).
    const fixedNow = Date.parse('2026-11-21T10:00:00Z');
    const stubAssessment = JSON.stringify(scoreSignal(firstRequestSignal(fixedNow), new Date(fixedNow)));
    const withoutScorer = await build(
      'analyze_without_scorer',
      `export { handler } from ${JSON.stringify(path.join(REPO_ROOT, 'lambdas/analyze/handler'))};\n`,
      [
        {
          name: 'stub-scorer',
          setup(b) {
            b.onResolve({ filter: /\/domain\/engine$/ }, () => ({ path: 'scorer-stub', namespace: 'stub' }));
            b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
              contents: `export function scoreSignal() { return ${stubAssessment}; }`,
              loader: 'ts',
            }));
          },
        },
      ],
    );
    const [email] = makeEmails(1, 2_000, 11);
    const weights = await analyzeWeights(esbuild, out);

    const all = [reference, lazyReference, trimmedReference, ...bundles, ...lazy];
    progress(`  module init: ${opts.initRuns} fresh node processes per bundle, interleaved ...`);
    const times = new Map<string, number[]>(all.map((b) => [b.name, []]));
    const scorerInit: number[] = [];
    const scorerFirst: number[] = [];
    for (let r = 0; r < opts.initRuns; r++) {
      for (const b of all) times.get(b.name)!.push(initTimeMs(b.file)[0]);
      const [init, first] = initTimeMs(scorer.file, { signal: email, now: '2026-11-21T10:00:00Z' });
      scorerInit.push(init);
      scorerFirst.push(first);
    }

    const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
    const measure = (b: { name: string; file: string }) => ({
      size: statSync(b.file).size,
      gzip: gzipSync(readFileSync(b.file), { level: 9 }).length,
      init: median(times.get(b.name) ?? []),
    });
    const [ref, trimmed, without] = [reference, trimmedReference, withoutScorer].map(measure);
    const figures: Figures = {
      bundle_docclient_only_kib: kib(ref.size),
      bundle_docclient_only_gzip_kib: kib(ref.gzip),
      init_docclient_only_ms: ref.init,
      init_docclient_only_lazy_client_ms: measure(lazyReference).init,
      bundle_docclient_only_trimmed_kib: kib(trimmed.size),
      bundle_docclient_only_trimmed_gzip_kib: kib(trimmed.gzip),
      init_docclient_only_trimmed_ms: trimmed.init,
      scorer_init_ms: median(scorerInit),
      scorer_first_call_ms: median(scorerFirst),
      bundle_analyze_without_scorer_gzip_kib: kib(without.gzip),
      bundle_analyze_without_scorer_ratio: Math.max(without.size / ref.size, without.gzip / ref.gzip),
    };
    const worst = { size: 0, init: 0, sizeTrimmed: 0, initTrimmed: 0 };
    // What every asset ships beside its index.js: the lazy bundles, as context (the goals read index.js).
    const lazySizes = lazy.map(measure);
    const lazySize = lazySizes.reduce((sum, m) => sum + m.size, 0);
    const lazyGzip = lazySizes.reduce((sum, m) => sum + m.gzip, 0);
    for (const b of bundles) {
      const m = measure(b);
      figures[`bundle_${b.name}_asset_gzip_kib`] = kib(m.gzip + lazyGzip);
      figures[`bundle_${b.name}_asset_ratio`] = Math.max(
        (m.size + lazySize) / ref.size,
        (m.gzip + lazyGzip) / ref.gzip,
      );
      const sizeRatio = Math.max(m.size / ref.size, m.gzip / ref.gzip);
      figures[`bundle_${b.name}_kib`] = kib(m.size);
      figures[`bundle_${b.name}_gzip_kib`] = kib(m.gzip);
      figures[`bundle_${b.name}_ratio`] = sizeRatio;
      figures[`init_${b.name}_ms`] = m.init;
      figures[`init_${b.name}_ratio`] = m.init / ref.init;
      worst.size = Math.max(worst.size, sizeRatio);
      worst.sizeTrimmed = Math.max(worst.sizeTrimmed, m.size / trimmed.size, m.gzip / trimmed.gzip);
      worst.initTrimmed = Math.max(worst.initTrimmed, m.init / trimmed.init);
      worst.init = Math.max(worst.init, m.init / ref.init);
    }
    for (const b of lazy) {
      const m = measure(b);
      figures[`bundle_${b.name}_kib`] = kib(m.size);
      figures[`init_${b.name}_ms`] = m.init;
    }
    figures.bundle_size_overhead_ratio_max = worst.size;
    figures.init_time_overhead_ratio_max = worst.init;
    figures.bundle_size_ratio_max_vs_trimmed = worst.sizeTrimmed;
    figures.init_time_ratio_max_vs_trimmed = worst.initTrimmed;
    figures.init_runs_per_bundle = opts.initRuns;
    Object.assign(figures, weights);
    const engineLambdas = bundles.flatMap((b) => (isFirstRequestRoute(b.name) ? [{ ...b, route: b.name }] : []));
    if (engineLambdas.length !== ENGINE_LAMBDAS.length)
      throw new Error(`the stack's bundles lack an engine Lambda of ${ENGINE_LAMBDAS.join(', ')}`);
    const withoutEngine = {
      name: 'analyze_without_scorer',
      file: withoutScorer.file,
      route: 'analyze' as const,
      context: true,
    };
    Object.assign(
      figures,
      await benchFirstRequests([...engineLambdas, withoutEngine], reference.file, LAMBDA_ENV, opts.initRuns, out),
    );
    return figures;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
