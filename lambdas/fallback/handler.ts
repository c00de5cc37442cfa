// Lambda entry for the $default route (404/405). It reads no data, so it gets telemetry and no database client.
import { parseSettings } from '../contract/settings';
import { createTelemetry } from '../observability';
import { fallbackRoute } from './route';

const settings = parseSettings(process.env);
export const handler = fallbackRoute({ telemetry: createTelemetry(settings, { inLambda: true }), settings });
