// Section "workspace": the hot path of a workspace with a policy and a learned 77-category model.
// Teaches ws_bench (the bench's workspace) banking77 categories through the feedback use case, then measures:
// DynamoDB calls of a warm analyze (goal: 0 reads, 1 write), the in-process request against a bare PutItem (goal:
// <= 1.3x; a fresh workspace is measured in the same loop for reference), writes per feedback (bound: 10), and what
// a container reads to load the model (requests, KB, ms), and the first load of a workspace that learned a lot.
// Runs after the other DynamoDB sections, so their figures are of a fresh workspace.
import { applyOwnEntry } from '../../lambdas/application/model-learning';
import { indexModel } from '../../lambdas/domain/learning/prediction-index';
import { FOLD_WINDOW } from '../../lambdas/stores/learning-fold';
import type { DynamoWorkspaceStore } from '../../lambdas/stores/workspace-store';
import { weightOf } from '../../lambdas/domain/learning/workspace-cache';
import { recordFeedback } from '../../lambdas/application/record-feedback';
import { banking77Rows, categoryName } from '../data-splits';
import { type Figures, shuffled } from './common';
import { benchInProcess } from './in-process';
import { expectOk } from './requests';
import type { Options } from './options';
import type { World } from './world';
import { benchWorkspaceImport } from './workspace-import';
import { benchLargeWorkspaceLoad } from './workspace-large-load';
import { benchLearnedAnalyzeCost } from './cost-learned';
import { benchLearnedFeedbackCost } from './cost-feedback-learned';
import { CapacityMeter } from './cost-measure';

export async function benchWorkspace(world: World, opts: Options): Promise<Figures> {
  const deps = world.service.dependencies;
  const ws = world.workspace;
  await world.putPolicy(ws, {
    vip_senders: ['@bigcustomer.example'],
    blocked_senders: ['@spam.example'],
    keywords: [{ phrase: 'production outage', weight: 10, category: 'incident', queue: 'oncall' }],
    thresholds: { critical: 85 },
    response_minutes: { high: 120 },
  });

  const perCategory = new Map<string, number>();
  const teachRows = banking77Rows().filter((r, i) => {
    if (r.length !== 2 || (i + 1) % 5 === 0) return false;
    const n = perCategory.get(r[1]) ?? 0;
    perCategory.set(r[1], n + 1);
    return n < opts.workspacePerCategory;
  });
  const teach = teachRows.map(([text, raw]): [string, string] => [text, categoryName(raw)]);
  const taught = await teachByFeedback(world, ws, world.key, teach);
  const { folds, feedbackUnits } = taught;
  // The same corrections in a seeded shuffled order (as the import bench's), on a workspace of their own: a partner's
  // feedback comes in any order, so a fold window touches many more label items than in file order.
  const shuffledWs = `${ws}_shuffled`;
  const shuffledKey = (await world.keyFor(shuffledWs)).key;
  const taughtShuffled = await teachByFeedback(world, shuffledWs, shuffledKey, shuffled(teach, 23));

  // Cold load of the taught workspace, then warm requests.
  deps.workspaces.invalidate(ws);
  const t0 = process.hrtime.bigint();
  const state = await deps.workspaceStore.loadState(ws);
  const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
  deps.workspaces.invalidate(ws);
  expectOk(await world.analyze());
  world.counter.reset();
  const decision = expectOk(await world.analyze());
  const warm = { reads: world.counter.readCalls, writes: world.counter.writeCalls };
  if (!/\+ws\.\d+$/.test(decision.model_version))
    throw new Error('the learned model did not take part in the decision');

  // A fresh workspace (no policy, nothing learned) measured in the same loop: the same-moment reference.
  const freshWs = `${ws}_fresh`;
  const freshKey = (await world.keyFor(freshWs)).key;
  const inprocess = await benchInProcess(world, opts.inprocessIterations, {
    key: freshKey,
    body: world.bodyFor(freshWs),
  });
  const counts = state.model.labels.reduce((sum, l) => sum + l.text.size + l.senders.size + l.domains.size, 0);
  const postings = indexModel(state.model).postings;
  const writes = await benchWorkspaceImport(world, teach, ws);
  const learnedCost = await benchLearnedAnalyzeCost(world, opts.quick, writes.ws_fresh_check_read_units);
  const feedbackCost = await benchLearnedFeedbackCost(
    world,
    teach.slice(0, opts.quick ? 100 : 300),
    folds,
    taughtShuffled.folds,
  );
  const largeLoad = await benchLargeWorkspaceLoad(world);
  return {
    ...writes,
    ...learnedCost,
    ...feedbackCost,
    ...largeLoad,
    ws_feedback_write_units: feedbackUnits,
    ws_feedback_vs_floor: feedbackUnits / 1,
    ws_feedback_folds: folds.count,
    ws_feedback_fold_cut_runs: folds.cutRuns + taughtShuffled.folds.cutRuns,
    ws_feedback_fold_window: FOLD_WINDOW,
    ws_feedback_fold_write_units_amortized: folds.write,
    ws_feedback_fold_read_units_amortized: folds.read,
    ws_feedback_folds_shuffled: taughtShuffled.folds.count,
    ws_feedback_fold_write_units_amortized_shuffled: taughtShuffled.folds.write,
    ws_feedback_fold_read_units_amortized_shuffled: taughtShuffled.folds.read,
    ws_feedback_fold_writes_max: taught.maxFoldWrites,
    ws_learned_categories: state.model.labels.filter((l) => l.field === 'category').length,
    ws_taught_feedback: teach.length,
    ws_reads_warm: warm.reads,
    ws_writes_warm: warm.writes,
    ws_feedback_writes_mean: taught.feedbackWrites / teach.length,
    ws_feedback_writes_max: taught.maxWrites,
    ws_model_load_requests: state.loadCost.requests,
    ws_model_load_kib: state.loadCost.bytes / 1024,
    ws_model_load_ms: loadMs,
    ws_model_counts: counts,
    ws_model_index_postings: postings,
    ws_cache_weight: weightOf(state),
    ws_inprocess_p50_ms: inprocess.inprocess_p50_ms,
    ws_putitem_p50_ms: inprocess.putitem_p50_ms,
    ws_inprocess_vs_putitem_p50_ratio: inprocess.inprocess_vs_putitem_p50_ratio,
    ws_inprocess_vs_putitem_p99_ratio: inprocess.inprocess_vs_putitem_p99_ratio,
    ws_inprocess_deployed_vs_putitem_p50_ratio: inprocess.inprocess_deployed_vs_putitem_p50_ratio,
    ws_inprocess_deployed_vs_putitem_p99_ratio: inprocess.inprocess_deployed_vs_putitem_p99_ratio,
    ws_fresh_inprocess_p50_ms: inprocess.other_p50_ms,
    ws_inprocess_p99_ms: inprocess.inprocess_p99_ms,
    ws_fresh_inprocess_p99_ms: inprocess.other_p99_ms,
    ws_learned_vs_fresh_p99_ratio: inprocess.inprocess_p99_ms / inprocess.other_p99_ms,
    ws_fresh_vs_putitem_p50_ratio: inprocess.other_vs_putitem_p50_ratio,
  };
}

/** Teaches `ws` the [text, category] pairs through the feedback use case, one analyze and one feedback each. */
async function teachByFeedback(world: World, ws: string, key: string, teach: [string, string][]) {
  const deps = world.service.dependencies;
  let feedbackWrites = 0;
  let maxWrites = 0;
  let maxFoldWrites = 0;
  const folder = (deps.workspaceStore as DynamoWorkspaceStore).folder;
  const foldsBefore = { ...folder.stats };
  // A run cut by its time (FOLD_RUN_MS) folds too: its writes are a fold's, finished by a later check.
  const foldRuns = () => folder.stats.folds + folder.stats.cutRuns;
  let foldsSeen = foldRuns();
  let feedbackUnitsSum = 0;
  const units = new CapacityMeter(world);
  const detach = units.attachClient(deps.client);
  for (const [text, category] of teach) {
    const body = JSON.stringify({ workspace_id: ws, source: 'support_message', body: text });
    const decision = expectOk(await world.analyze(key, body));
    world.counter.reset();
    units.reset();
    const target = await deps.feedbackStore.getTarget(decision.decision_id);
    const workspace = await deps.workspaces.get(ws);
    const out = await recordFeedback(target!, { category }, deps.feedbackStore, workspace, new Date().toISOString());
    if (out.kind === 'recorded') applyOwnEntry(workspace.state, out);
    feedbackUnitsSum += units.reportedWriteUnits;
    feedbackWrites += world.counter.writeCalls;
    // The feedback that folds a window writes the label items too; the others write 3 small items.
    if (foldRuns() > foldsSeen) maxFoldWrites = Math.max(maxFoldWrites, world.counter.writeCalls);
    else maxWrites = Math.max(maxWrites, world.counter.writeCalls);
    foldsSeen = foldRuns();
  }
  detach();
  const folds = {
    count: folder.stats.folds - foldsBefore.folds,
    cutRuns: folder.stats.cutRuns - foldsBefore.cutRuns,
    write: (folder.stats.writeUnits - foldsBefore.writeUnits) / teach.length,
    read: (folder.stats.readUnits - foldsBefore.readUnits) / teach.length,
  };
  const feedbackUnits = feedbackUnitsSum / teach.length;
  return { folds, feedbackUnits, feedbackWrites, maxWrites, maxFoldWrites };
}
