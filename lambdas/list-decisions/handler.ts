// Lambda entry for GET /api/v1/decisions: the route built once per container from the settings the stack wrote.
import { parseSettings } from '../contract/settings';
import { createDependencies } from '../dependencies';
import { listDecisionsRoute } from './route';

export const handler = listDecisionsRoute(createDependencies(parseSettings(process.env), { inLambda: true }));
