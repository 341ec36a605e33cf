/**
 * A required setting is missing or wrong. Every part raises it (the client's credentials, the
 * listener's secret, the store's path, the operator's tokens), so it lives with the vocabulary
 * rather than in the marketplace client's folder.
 */
import { AppError } from './app-error.js';

/** A required setting is missing or wrong; the message names the environment variable to fix. */
export class ConfigurationError extends AppError {
  override readonly name = 'ConfigurationError';
  readonly code = 'CONFIGURATION';
  constructor(message: string) {
    super(message);
  }
}
