// Analyze's cost with a learned model: the cost section's analyze line again, on the bench workspace after the
// workspace section taught it (policy + learned model), plus the freshness checks its containers make. A hot
// workspace served by many containers: each container, past its TTL, reads the small check items again, so the reads
// one analyze carries are the check's units / (TTL x requests per container per second).
import { ANALYZE_FLOOR, analyzeSamples, priceFigures, realEmails, resources, withMeteredService } from './cost-measure';
import { type Figures } from './common';
import type { World } from './world';

/** The hot workspace the freshness reads are spread over: this many containers, this many requests a second. */
const HOT_CONTAINERS = 100;
const HOT_REQUESTS_PER_SECOND = 100;

export async function benchLearnedAnalyzeCost(world: World, quick: boolean, checkReadUnits: number): Promise<Figures> {
  const settings = world.service.dependencies.settings;
  const emails = realEmails(world.workspace, quick ? 400 : 2_000);
  const samples = await withMeteredService(world, (call) =>
    analyzeSamples(call, emails, 'analyze with a learned model'),
  );
  const learned = samples.filter((s) => /\+ws\.\d+"/.test(s.result.body)).length;
  if (learned !== samples.length) throw new Error('the learned model did not take part in every measured decision');
  const { measured, floor } = resources({ name: 'analyze_learned', decisions: 1, samples, floor: ANALYZE_FLOOR });
  const perContainerPerSecond = HOT_REQUESTS_PER_SECOND / HOT_CONTAINERS;
  const freshReads = checkReadUnits / (settings.workspaceCacheTtlSeconds * perContainerPerSecond);
  return {
    ...priceFigures('analyze_learned', { ...measured, readUnits: measured.readUnits + freshReads }, floor),
    cost_analyze_learned_read_units: measured.readUnits,
    cost_analyze_learned_fresh_read_units: freshReads,
    cost_analyze_learned_billed_ms_route: measured.billedMs[1],
    cost_analyze_learned_calls_measured: samples.filter((s) => s.result.statusCode === 200).length,
  };
}
