// Lambda entry for POST /api/v1/signals/analyze-batch: the route built once per container from the settings the stack wrote.
import { parseSettings } from '../contract/settings';
import { createDependencies } from '../dependencies';
import { analyzeBatchRoute } from './route';

export const handler = analyzeBatchRoute(createDependencies(parseSettings(process.env), { inLambda: true }));
