// Part of section "batch": one page of a workspace of 3,000 decisions, filtered by priority and not (issue 33,
// finding 12). Each priority's page reads its own partitions of the listing index, so its time stays near an
// unfiltered page's whatever the workspace holds; before, a page of critical decisions read all 3,000.
import type { Decision, Priority } from '../../lambdas/domain/decision';
import { newDecisionId } from '../../lambdas/domain/ids';
import { type Figures, median, progress, shown } from './common';
import { apiEvents, inProcess, okBody } from './requests';
import type { World } from './world';

const TOTAL = 3_000;
/** A workspace of mostly low decisions: 10 critical, 20 high, 270 medium, 2,700 low. */
const priorityOf = (i: number): Priority =>
  i % 300 === 0 ? 'critical' : i % 100 === 0 ? 'high' : i % 10 === 0 ? 'medium' : 'low';
const FILTERS = ['critical', 'high', 'medium', 'low', 'critical,high', 'critical,high,medium'];

export async function benchListPriority(world: World, quick: boolean): Promise<Figures> {
  const ws = 'ws_bench_list3000';
  const { key } = await world.keyFor(ws);
  const start = Date.now() - TOTAL * 1_000;
  const decisions = Array.from({ length: TOTAL }, (_, i) => {
    const at = new Date(start + i * 1_000).toISOString();
    return {
      ...{ workspace_id: ws, score: 10, recommended_action: 'review', category: 'general', queue: 'support' },
      ...{ reasons: [], source: 'email', received_at: at, created_at: at, model_version: 'rules-bench' },
      decision_id: newDecisionId(start + i * 1_000),
      priority: priorityOf(i),
    } as unknown as Decision;
  });
  for (let i = 0; i < TOTAL; i += 100)
    await world.service.dependencies.decisionBatch.saveBatch(
      decisions.slice(i, i + 100),
      { partner_id: 'bench', key_id: 'bench' },
      { items: [], createdMs: start },
    );

  const page = async (filter?: string) => {
    const query = `workspace_id=${ws}&limit=20${filter ? `&priority=${filter}` : ''}`;
    const t = performance.now();
    const result = await inProcess(world.service, apiEvents({ key, method: 'GET', path: '/api/v1/decisions', query }));
    okBody(result, 'list');
    return performance.now() - t;
  };
  const runs = quick ? 10 : 30;
  for (let i = 0; i < 5; i++) await page(); // warm-up: the key, the listing index probe, the JIT
  const times = new Map<string, number[]>([['none', []], ...FILTERS.map((f) => [f, []] as [string, number[]])]);
  // Interleaved, so drift on a shared machine falls on every filter alike.
  for (let r = 0; r < runs; r++) {
    times.get('none')!.push(await page());
    for (const f of FILTERS) times.get(f)!.push(await page(f));
  }
  const unfiltered = median(times.get('none')!);
  const figures: Figures = { list3000_unfiltered_page_ms_median: unfiltered };
  let worst = 0;
  for (const f of FILTERS) {
    const ms = median(times.get(f)!);
    figures[`list3000_priority_${f.replace(/,/g, '_')}_page_ms_median`] = ms;
    worst = Math.max(worst, ms / unfiltered);
  }
  figures.list3000_priority_vs_unfiltered_ratio_max = worst;
  progress(`  list of 3,000: unfiltered ${shown(unfiltered)} ms, worst filter ${shown(worst)}x`);
  return figures;
}
