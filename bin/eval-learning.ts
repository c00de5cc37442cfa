// Learning curve of a workspace taught only through the HTTP API (docs/learning.md), end to end against
// local mode: the real handlers behind the local HTTP server over a real socket, on an embedded DynamoDB Local.
//   npm run eval:learning            human-readable report
//   npm run --silent eval:learning -- --json   one JSON object
// Data: banking77-train.csv in ../shared/data (or $SAS_DATA_DIR). The held-out split, fixed before any tuning: every
// 5th data line (1-based) is held out and never taught; the rest is the teaching pool. "10 per category" teaches the
// first 10 examples of each category in file order from the pool (the curve: 1, 2, 5, 10, 20 and all). Teaching =
// the import route (docs/partners.md, "Importing your history, and forgetting it": exactly what analyze then feedback
// teaches), and for one workspace analyze then feedback itself. Measuring = analyze each held-out query and compare its
// category. Also measured: importing the whole file through `workspace import`'s code, and specificity
// (eval-learning-specificity.ts). No text is printed.
import './lexicon-index-check';
import { banking77Rows, categoryName } from './data-splits';
import { TEN_BINS, reliabilityTable, round, type Judged } from './eval/report';
import { startScratch } from '../lib/local/scratch';
import { apiPoster } from './eval/api-post';
import { chunks, inParallel } from '../lambdas/domain/in-parallel';
import { startLocalServer } from '../lib/local/server';
import type { DynamoFeedbackStore } from '../lambdas/stores/feedback-store';
import { SPECIFICITY_WS, measureSpecificity, timeWorkspaceImport } from './eval-learning-specificity';
import { seedSketchKeys } from './eval/seeded-sketch-keys';

const JSON_OUT = process.argv.includes('--json');
const CONCURRENCY = 8;
/** Short, so the measuring phase starts right after every container-cache entry is stale. */
const CACHE_TTL_SECONDS = 2;
const GOALS = { tenPerCategory: 0.8, wholeFile: 0.92, importSeconds: 60, spillover: 0.01 };
const CURVE = [1, 2, 5, 10, 20] as const;

interface Example {
  text: string;
  category: string;
}

function log(line: string) {
  if (!JSON_OUT) process.stderr.write(`${line}\n`);
}

async function main() {
  const rows = banking77Rows();
  const examples: Example[] = rows
    .filter((r) => r.length === 2 && r[0].trim())
    .map(([text, c]) => ({ text, category: categoryName(c) }));
  const heldOut = examples.filter((_, i) => (i + 1) % 5 === 0);
  const teachPool = examples.filter((_, i) => (i + 1) % 5 !== 0);
  const firstPer = (k: number) => {
    const perCategory = new Map<string, number>();
    return teachPool.filter((e) => {
      const n = perCategory.get(e.category) ?? 0;
      perCategory.set(e.category, n + 1);
      return n < k;
    });
  };
  const ten = firstPer(10);

  log('starting DynamoDB Local (in memory) and local mode ...');
  const scratch = await startScratch({
    name: 'evl',
    partner: 'eval',
    workspaces: ['ws_*'],
    settings: { dynamodbRequestTimeoutMs: 4_000, workspaceCacheTtlSeconds: CACHE_TTL_SECONDS, logLevel: 'ERROR' },
  });
  const { service, client: adminClient, names } = scratch;
  const server = await startLocalServer({ port: 0, handlers: service });
  try {
    const key = await scratch.newKey();
    const post = apiPoster(server.baseUrl, key);
    const analyze = async (workspace: string, e: Example) =>
      (await post('/signals/analyze', { workspace_id: workspace, source: 'support_message', body: e.text })) as {
        decision_id: string;
        category?: string;
        reasons: { code: string }[];
        confidence?: number;
      };
    const feedbackStore = service.dependencies.feedbackStore as DynamoFeedbackStore;

    const importSet = async (workspace: string, set: Example[]) => {
      const t0 = Date.now();
      await inParallel(chunks(set, 100), CONCURRENCY, async (chunk) => {
        const examples = chunk.map((e) => ({
          signal: { source: 'support_message', body: e.text },
          labels: { category: e.category },
        }));
        const out = await post(`/workspaces/${workspace}/examples`, { examples });
        if (out.learned !== chunk.length)
          throw new Error(`import into ${workspace} learned ${String(out.learned)} of ${chunk.length}`);
      });
      return { seconds: (Date.now() - t0) / 1000 };
    };
    const teach = async (workspace: string, set: Example[]) => {
      const t0 = Date.now();
      const writesBefore = feedbackStore.counter.writes;
      await inParallel(set, CONCURRENCY, async (e, i) => {
        const d = await analyze(workspace, e);
        await post(`/decisions/${d.decision_id}/feedback`, { category: e.category });
        if (i % 1000 === 999) log(`  ${workspace}: taught ${i + 1} of ${set.length}`);
      });
      return {
        seconds: (Date.now() - t0) / 1000,
        writesPerFeedback: (feedbackStore.counter.writes - writesBefore) / set.length,
      };
    };
    const measure = async (workspace: string) => {
      let right = 0;
      const latencies: number[] = [];
      const judged: LearnedJudged[] = [];
      await inParallel(heldOut, CONCURRENCY, async (e) => {
        const t = performance.now();
        const d = await analyze(workspace, e);
        latencies.push(performance.now() - t);
        if (d.category === e.category) right++;
        const learned = d.reasons.some((r) => r.code === 'LEARNED_CATEGORY');
        judged.push({ confidence: Number(d.confidence), right: d.category === e.category, learned });
      });
      latencies.sort((a, b) => a - b);
      return {
        accuracy: right / heldOut.length,
        p50Ms: latencies[Math.floor(latencies.length / 2)],
        reliability: reliability(judged),
      };
    };

    const curveSets = [...CURVE.map((k) => [`ws_c${k}`, firstPer(k)] as const), ['ws_all', teachPool] as const];
    // Seeded sketch keys before any workspace's first request, so the figures repeat run to run.
    await seedSketchKeys(adminClient, names.decisions, ['ws_ten', ...curveSets.map(([ws]) => ws), SPECIFICITY_WS]);
    log(`teaching ws_ten: ${ten.length} corrections (10 per category) through analyze and feedback ...`);
    const taughtTen = await teach('ws_ten', ten);
    for (const [ws, set] of curveSets) {
      log(`importing ${ws}: ${set.length} examples through POST .../examples ...`);
      await importSet(ws, set);
    }
    log(`importing the whole file (${examples.length}) through workspace import's code ...`);
    const importAll = await timeWorkspaceImport(adminClient, names.decisions, examples);
    log('measuring specificity on other corpora ...');
    const specificity = await measureSpecificity(teachPool, post);
    await new Promise((r) => setTimeout(r, CACHE_TTL_SECONDS * 1000 + 500));
    log(`measuring on ${heldOut.length} held-out queries ...`);
    const ten10 = await measure('ws_ten');
    const measured: Awaited<ReturnType<typeof measure>>[] = [];
    for (const [ws] of curveSets) measured.push(await measure(ws));
    const all = measured[measured.length - 1];
    const curve = curveSets.map(([ws, set], i) => ({
      per_category: ws === 'ws_all' ? ('all' as const) : Number(ws.slice(4)),
      taught: set.length,
      accuracy: round(measured[i].accuracy, 3),
    }));
    const imported10 = curve.find((c) => c.per_category === 10)!.accuracy;
    const load = await service.dependencies.workspaceStore.loadState('ws_all');
    const labels = load.model.labels.filter((l) => l.field === 'category');
    const largestLabel = Math.max(...labels.map((l) => l.text.size + l.senders.size + l.domains.size));

    const report = {
      data: 'banking77-train.csv',
      split:
        'held out: every 5th data line (1-based); teaching pool: the other lines; 10/category: first 10 per category in file order',
      held_out: heldOut.length,
      categories: new Set(examples.map((e) => e.category)).size,
      ten_per_category: {
        taught: ten.length,
        accuracy: imported10,
        by_feedback: round(ten10.accuracy, 3),
        goal: GOALS.tenPerCategory,
        pass: imported10 >= GOALS.tenPerCategory,
      },
      curve,
      import_whole_file: {
        examples: examples.length,
        seconds: round(importAll.seconds, 1),
        goal: GOALS.importSeconds,
        pass: importAll.seconds <= GOALS.importSeconds,
      },
      specificity: { ...specificity, goal: GOALS.spillover, pass: specificity.spillover <= GOALS.spillover },
      whole_pool: {
        taught: teachPool.length,
        accuracy: round(all.accuracy, 3),
        goal: GOALS.wholeFile,
        pass: all.accuracy >= GOALS.wholeFile,
      },
      writes_per_feedback: { measured: round(taughtTen.writesPerFeedback, 2), bound: 10 },
      teaching_seconds: { ten_by_feedback: round(taughtTen.seconds, 1) },
      analyze_p50_ms_over_http: round(all.p50Ms, 2),
      confidence_reliability: { ten_per_category: ten10.reliability, whole_pool: all.reliability },
      model_load_77_categories: {
        requests: load.loadCost.requests,
        approx_kb: round(load.loadCost.bytes / 1024, 1),
        labels: load.model.labels.length,
        largest_label_counts: largestLabel,
      },
    };
    if (JSON_OUT) process.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      const line = (name: string, value: string, goal: string, pass?: boolean) =>
        console.log(
          `${name.padEnd(44)} ${value.padStart(10)}   goal ${goal}${pass === undefined ? '' : pass ? '  PASS' : '  MISS'}`,
        );
      console.log(
        `Learning eval: ${report.data}, ${report.categories} categories, ${report.held_out} held-out queries`,
      );
      console.log(`  split: ${report.split}`);
      for (const c of curve)
        line(
          `category accuracy, ${c.per_category} per category (${c.taught}, imported)`,
          c.accuracy.toFixed(3),
          c.per_category === 10
            ? `>= ${GOALS.tenPerCategory}`
            : c.per_category === 'all'
              ? `>= ${GOALS.wholeFile}`
              : 'curve',
          c.per_category === 10
            ? report.ten_per_category.pass
            : c.per_category === 'all'
              ? report.whole_pool.pass
              : undefined,
        );
      line(
        'category accuracy, 10/category by feedback',
        report.ten_per_category.by_feedback.toFixed(3),
        'same as imported (within a few thousandths)',
      );
      line(
        `workspace import of the whole file (${examples.length}), s`,
        report.import_whole_file.seconds.toFixed(1),
        `<= ${GOALS.importSeconds}`,
        report.import_whole_file.pass,
      );
      line(
        `taught labels on other corpora (${specificity.decisions})`,
        `${(specificity.spillover * 100).toFixed(2)}%`,
        `<= ${GOALS.spillover * 100}%`,
        report.specificity.pass,
      );
      line(
        '  of those, naming a LEARNED_* reason',
        `${specificity.taught_with_learned_reason}/${specificity.taught_label_decisions}`,
        'all',
      );
      for (const [corpus, n] of Object.entries(specificity.by_corpus))
        line(`  ${corpus}: taught labels`, `${n.taught}/${n.decisions}`, 'informational');
      line(
        'DynamoDB writes per feedback (mean)',
        report.writes_per_feedback.measured.toFixed(2),
        '<= 10 (bound)',
        report.writes_per_feedback.measured <= 10,
      );
      line(
        'model load, 77 categories: requests',
        String(report.model_load_77_categories.requests),
        'bounded (1 + labels/100)',
      );
      line('model load, 77 categories: approx KB read', report.model_load_77_categories.approx_kb.toFixed(1), 'stated');
      line('largest label item: counts', String(largestLabel), '<= 49,152 (3 x 16,384)', largestLabel <= 49_152);
      line('analyze p50 over HTTP while measuring (ms)', report.analyze_p50_ms_over_http.toFixed(2), 'informational');
      for (const [name, r] of [
        ['10 corrections/category', ten10.reliability],
        ['whole pool', all.reliability],
      ] as const) {
        console.log(
          `Confidence reliability, ${name}: decisions whose category was learned (${r.learned.decisions} of ${heldOut.length})`,
        );
        console.log('  confidence   decisions   mean confidence   accuracy');
        for (const b of r.learned.buckets) {
          console.log(
            `  ${b.range.padEnd(11)} ${String(b.decisions).padStart(9)}   ${b.mean_confidence.toFixed(3).padStart(15)}   ${b.accuracy.toFixed(3).padStart(8)}`,
          );
        }
        console.log(
          `  expected calibration error ${r.learned.ece.toFixed(3)}; mean confidence ${r.learned.mean_confidence.toFixed(3)}, accuracy ${r.learned.accuracy.toFixed(3)}`,
        );
        console.log(
          `  nothing learned applied (global category and confidence): ${r.global.decisions} decisions, mean confidence ${r.global.mean_confidence.toFixed(3)}, accuracy ${r.global.accuracy.toFixed(3)}`,
        );
      }
    }
  } finally {
    await server.close();
    await scratch.stop();
  }
}

/** A held-out decision: its confidence, whether its category was right, and whether it came from what was learned. */
interface LearnedJudged extends Judged {
  /** The category came from what the workspace learned (reason LEARNED_CATEGORY). */
  learned: boolean;
}

/**
 * The reliability table over tenths of confidence for the decisions whose category was learned; the others keep the
 * global engine's category and confidence, which know nothing of banking77's names.
 */
function reliability(judged: LearnedJudged[]) {
  const summary = (xs: Judged[]) => ({
    decisions: xs.length,
    mean_confidence: xs.length ? round(xs.reduce((s, j) => s + j.confidence, 0) / xs.length, 3) : 0,
    accuracy: xs.length ? round(xs.filter((j) => j.right).length / xs.length, 3) : 0,
  });
  const learned = judged.filter((j) => j.learned);
  const table = reliabilityTable(learned, TEN_BINS);
  return {
    learned: {
      ...summary(learned),
      ece: table.ece,
      buckets: table.rows
        .filter((r) => r.n > 0)
        .map((r) => ({ range: r.bucket, decisions: r.n, mean_confidence: r.mean_confidence, accuracy: r.agreement })),
    },
    global: summary(judged.filter((j) => !j.learned)),
  };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
