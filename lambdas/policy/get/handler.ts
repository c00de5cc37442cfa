// Lambda entry for GET /api/v1/workspaces/{workspace_id}/policy.
import { parseSettings } from '../../contract/settings';
import { createDependencies } from '../../dependencies';
import { getPolicyRoute } from '../route';

export const handler = getPolicyRoute(createDependencies(parseSettings(process.env), { inLambda: true }));
