// The service as one object built from settings: the authorizer, every route's handler and the fallback, sharing one
// set of dependencies. Local mode, the tests, the bench and the load tool get the service from here; each Lambda entry
// file builds just its own handler from the same parts (so a bundle carries only its route's code).
import type { RouteId } from './contract/routes';
import type { Settings } from './contract/settings';
import { analyzeRoute } from './analyze/route';
import { analyzeBatchRoute } from './analyze-batch/route';
import { type AuthorizerHandler, authorizerHandler } from './authorizer/authorizer-handler';
import { type Dependencies, type DependencyOverrides, createDependencies } from './dependencies';
import { fallbackRoute } from './fallback/route';
import { feedbackRoute } from './feedback/route';
import { forgetModelRoute } from './forget-model/route';
import { importExamplesRoute } from './import-examples/route';
import { getPolicyRoute, putPolicyRoute } from './policy/route';
import { getDecisionRoute } from './get-decision/route';
import { listDecisionsRoute } from './list-decisions/route';
import type { RouteHandler } from './http/api-handler';

const ROUTE_BUILDERS: Record<RouteId, (deps: Dependencies) => RouteHandler> = {
  Analyze: analyzeRoute,
  GetDecision: getDecisionRoute,
  ListDecisions: listDecisionsRoute,
  AnalyzeBatch: analyzeBatchRoute,
  GetPolicy: getPolicyRoute,
  PutPolicy: putPolicyRoute,
  Feedback: feedbackRoute,
  ImportExamples: importExamplesRoute,
  ForgetModel: forgetModelRoute,
};

export interface Service {
  dependencies: Dependencies;
  authorizer: AuthorizerHandler;
  fallback: RouteHandler;
  routes: Record<RouteId, RouteHandler>;
  /** Releases the database client's connections when the service made it. */
  close(): void;
}

export function createService(settings: Settings, overrides: DependencyOverrides = {}): Service {
  const dependencies = createDependencies(settings, overrides);
  const routes = Object.fromEntries(
    Object.entries(ROUTE_BUILDERS).map(([id, build]) => [id, build(dependencies)]),
  ) as Record<RouteId, RouteHandler>;
  return {
    dependencies,
    authorizer: authorizerHandler(dependencies),
    fallback: fallbackRoute(dependencies),
    routes,
    close() {
      if (!overrides.client) dependencies.client.destroy();
    },
  };
}
