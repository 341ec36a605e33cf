// Protections' public face: automatic pauses of new offers and the silent-webhooks alert.
// The settings' schema lives in src/risk (the risk section parses it, and ops imports risk).
export { protectionSettingsSchema, type ProtectionSettings } from '../../risk/index.js';
export { Protections, PAUSED_LOANS_KEY, type ProtectionsDeps } from './protections.js';
export { PAUSE_KEY, storedPause, type Pause, type PauseKind } from './pause-state.js';
export { SILENCE_KEY, storedWebhookSilence, type WebhookSilence } from './webhook-silence.js';
export { isAccountRefusal } from './account-refusals.js';
export { vintageHealth, type VintageHealth } from './loan-vintage.js';
export { CALIBRATION_DRIFT_KEY, storedCalibrationDrift, type CalibrationDrift } from './calibration-drift.js';
