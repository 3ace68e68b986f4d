/** GET / (liveness). */
import * as z from 'zod/mini';

export const livenessResponse = z
  .object({ name: z.string(), version: z.string(), base_path: z.string(), status: z.literal('ok') })
  .register(z.globalRegistry, { id: 'Liveness' });
