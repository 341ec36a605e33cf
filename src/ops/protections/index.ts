// Protections' public face: automatic pauses of new offers and the silent-webhooks alert.
// The settings' schema lives in src/risk (the risk section parses it, and ops imports risk).
export { protectionSettingsSchema, type ProtectionSettings } from '../../risk/index.js';
export { Protections } from './protections.js';
export { PAUSE_KEY, pauseJson, storedPause, type Pause } from './pause-state.js';
export { storedWebhookSilence } from './webhook-silence.js';
export { isAccountRefusal } from './account-refusals.js';
export { storedCalibrationDrift } from './calibration-drift.js';
