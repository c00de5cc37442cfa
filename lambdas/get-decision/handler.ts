// Lambda entry for GET /api/v1/decisions/{decision_id}: the route built once per container from the settings the stack wrote.
import { parseSettings } from '../contract/settings';
import { createDependencies } from '../dependencies';
import { getDecisionRoute } from './route';

export const handler = getDecisionRoute(createDependencies(parseSettings(process.env), { inLambda: true }));
