/**
 * `GET /api/calibration`: predicted against realised default of the lender's loans by vintage,
 * over the calibration protection's window, and its alert (src/ops/calibration.ts); the
 * dashboard's calibration panel draws it. The calibration wing's route (src/daemon/wing-surfaces.ts).
 */
import { calibrationJson, calibrationStatus } from '../ops/calibration.js';
import { storedCalibrationDrift } from '../ops/protections/index.js';
import type { ApiDeps } from '../operator/api/api-deps.js';
import type { OperatorApp } from '../operator/operator-listener.js';

export function registerCalibrationRoutes(api: OperatorApp, deps: ApiDeps): void {
  const { store, clock, limits } = deps.context;
  api.get('/calibration', async (_request, reply) => {
    const status = calibrationStatus(store, clock.now(), limits().protections.calibration, storedCalibrationDrift(store.state));
    return reply.header('cache-control', 'no-store').send(calibrationJson(status));
  });
}
