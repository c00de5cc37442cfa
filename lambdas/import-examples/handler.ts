// Lambda entry for POST /api/v1/workspaces/{workspace_id}/examples.
import { parseSettings } from '../contract/settings';
import { createDependencies } from '../dependencies';
import { importExamplesRoute } from './route';

export const handler = importExamplesRoute(createDependencies(parseSettings(process.env), { inLambda: true }));
