// Lambda entry for PUT /api/v1/workspaces/{workspace_id}/policy.
import { parseSettings } from '../../contract/settings';
import { createDependencies } from '../../dependencies';
import { putPolicyRoute } from '../route';

export const handler = putPolicyRoute(createDependencies(parseSettings(process.env), { inLambda: true }));
