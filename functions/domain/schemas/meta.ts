/** GET / (liveness). */
import * as z from 'zod/mini';

export const livenessResponse = z
  .object({
    name: z.string().check(z.meta({ description: "The API's name" })),
    version: z.string().check(z.meta({ description: 'The major version, as in the path (`v1`)' })),
    revision: z.string().check(z.meta({ description: 'The date of its latest revision, as every answer\'s `Reaction-Studio-Version` header says' })),
    base_path: z.string().check(z.meta({ description: 'Where the API is served from on this host (`/api/v1`)' })),
    status: z.literal('ok').check(z.meta({ description: 'Always `ok`: the service answers' })),
  })
  .register(z.globalRegistry, { id: 'Liveness', description: 'The service is up' });
