/** GET / (no auth) and the catch-all that turns unknown routes into 404/405 in the envelope. */
import type { PublicOperation } from '#http/api-types';
import { ok } from '#http/respond';
import { API_PREFIX } from '#functions/routes';

export const API_NAME = 'Reaction Studio API';
export const API_VERSION = 'v1';

const liveness: PublicOperation = async () =>
  ok({ name: API_NAME, version: API_VERSION, base_path: API_PREFIX, status: 'ok' });

export const metaOperations = { liveness: { public: liveness } };
