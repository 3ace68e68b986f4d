/** GET / (liveness). */
import * as z from 'zod/mini';

export const livenessResponse = z
  .object({
    name: z.string(),
    version: z.string().check(z.meta({ description: 'The major version, as in the path (`v1`)' })),
    revision: z.string().check(z.meta({ description: 'The date of its latest revision, as every answer\'s `Reaction-Studio-Version` header says' })),
    base_path: z.string(),
    status: z.literal('ok'),
  })
  .register(z.globalRegistry, { id: 'Liveness' });
