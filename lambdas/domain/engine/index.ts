// The decision engine's public face: what the analyze use case, the eval, the bench and the tests import.
export { BASE_SCORE, MODEL_VERSION, lastConfidenceInput, scoreSignal, severityFeatures } from './score';
export { type EngineModels } from './severity';
export { ARCHIVE_CATEGORIES, CATEGORY_QUEUE, REASON_CODES } from './reason-codes';
