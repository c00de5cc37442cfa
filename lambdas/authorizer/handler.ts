// Lambda entry for the authorizer: built once per container from the settings the stack wrote.
import { parseSettings } from '../contract/settings';
import { createDependencies } from '../dependencies';
import { authorizerHandler } from './authorizer-handler';

export const handler = authorizerHandler(createDependencies(parseSettings(process.env), { inLambda: true }));
