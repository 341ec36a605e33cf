// Protections' public face: automatic pauses of new offers and the silent-webhooks alert.
export { Protections, storedPause, storedWebhookSilence, PAUSE_KEY, SILENCE_KEY, type Pause, type PauseKind, type ProtectionsDeps, type WebhookSilence } from './protections.js';
export { vintageHealth, type VintageHealth } from './loan-vintage.js';
