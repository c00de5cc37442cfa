// Lambda entry for the authorizer: built once per container from the settings the stack wrote.
// Its key store only, built by the service's factory parts (lambdas/dependencies.ts).
import { parseSettings } from '../contract/settings';
import { accessStoreOf, createEdgeDependencies } from '../dependencies';
import { authorizerHandler } from './authorizer-handler';

const edge = createEdgeDependencies(parseSettings(process.env), { inLambda: true });
export const handler = authorizerHandler({ ...edge, accessStore: accessStoreOf(edge) });
