// Lambda entry for POST /api/v1/decisions/{decision_id}/feedback.
import { parseSettings } from '../contract/settings';
import { createDependencies } from '../dependencies';
import { feedbackRoute } from './route';

export const handler = feedbackRoute(createDependencies(parseSettings(process.env), { inLambda: true }));
