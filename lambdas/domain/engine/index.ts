// The decision engine's public face: what the analyze use case, the eval, the bench and the tests import.
export { BASE_SCORE, MODEL_VERSION, SPAM_LIKELY, lastConfidenceInput, scoreSignal, severityFeatures } from './score';
export { severityCodes, type EngineModels } from './severity';
export { ARCHIVE_CATEGORIES, CATEGORY_QUEUE, REASON_CODES, type ReasonCode, type ReasonCodeInfo } from './reason-codes';
