// Lambda entry for POST /api/v1/signals/analyze: the route built once per container from the settings the stack wrote.
import { parseSettings } from '../contract/settings';
import { createDependencies } from '../dependencies';
import { analyzeRoute } from './route';

export const handler = analyzeRoute(createDependencies(parseSettings(process.env), { inLambda: true }));
