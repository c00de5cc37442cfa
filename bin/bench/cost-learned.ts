// Analyze's cost with a learned model (issue 23): the cost section's analyze line again, on the bench workspace after
// the workspace section taught it (policy + learned model), plus the freshness checks its containers make. A hot
// workspace served by many containers: each container, past its TTL, reads the small check items again, so the reads
// one analyze carries are the check's units / (TTL x requests per container per second).
import { API_BASE_PATH, ROUTES } from '../../lambdas/contract/routes';
import {
  type CallSample,
  meteredService,
  LOG_RETENTION_DAYS,
  call,
  priceFigures,
  realEmails,
  resources,
} from './cost-measure';
import { type Figures, progress, round3 } from './common';
import type { World } from './world';

/** The hot workspace the freshness reads are spread over: this many containers, this many requests a second. */
const HOT_CONTAINERS = 100;
const HOT_REQUESTS_PER_SECOND = 100;

export async function benchLearnedAnalyzeCost(world: World, quick: boolean, checkReadUnits: number): Promise<Figures> {
  const settings = world.service.dependencies.settings;
  const { service, meter } = meteredService(world);
  const key = await world.newKey();
  const analyzePath = `${API_BASE_PATH}/signals/analyze`;
  const samples: CallSample[] = [];
  try {
    const emails = realEmails(world.workspace, quick ? 400 : 2_000);
    // Warm-up: the key and the learned model loaded once, as in a warm Lambda.
    for (const body of emails.slice(0, 50))
      await call(service, meter, { key, method: 'POST', path: analyzePath, body });
    progress(`  cost: analyze with a learned model over ${emails.length} real e-mails ...`);
    for (const body of emails)
      samples.push(await call(service, meter, { key, method: 'POST', path: analyzePath, body }));
  } finally {
    service.close();
  }
  const learned = samples.filter((s) => /\+ws\.\d+"/.test(s.result.body)).length;
  if (learned !== samples.length) throw new Error('the learned model did not take part in every measured decision');
  const listing = ROUTES.some((r) => r.method === 'GET' && r.path === `${API_BASE_PATH}/decisions`);
  const { measured, floor } = resources(
    {
      name: 'analyze_learned',
      decisions: 1,
      samples,
      floor: { writeUnits: 1 + (listing ? 1 : 0), readUnits: 0 },
      routeKey: `POST ${analyzePath}`,
    },
    LOG_RETENTION_DAYS / 30,
  );
  const perContainerPerSecond = HOT_REQUESTS_PER_SECOND / HOT_CONTAINERS;
  const freshReads = checkReadUnits / (settings.workspaceCacheTtlSeconds * perContainerPerSecond);
  return {
    ...priceFigures('analyze_learned', { ...measured, readUnits: measured.readUnits + freshReads }, floor),
    cost_analyze_learned_read_units: round3(measured.readUnits),
    cost_analyze_learned_fresh_read_units: round3(freshReads),
    cost_analyze_learned_billed_ms_route: round3(measured.billedMs[1]),
    cost_analyze_learned_calls_measured: samples.filter((s) => s.result.statusCode === 200).length,
  };
}
