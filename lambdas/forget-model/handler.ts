// Lambda entry for DELETE /api/v1/workspaces/{workspace_id}/model.
import { parseSettings } from '../contract/settings';
import { createDependencies } from '../dependencies';
import { forgetModelRoute } from './route';

export const handler = forgetModelRoute(createDependencies(parseSettings(process.env), { inLambda: true }));
