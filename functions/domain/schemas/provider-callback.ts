/** A hosted engine's completion webhook (fal.ai's body) and what the service answers it. */
import * as z from 'zod/mini';
import { meaning } from './envelope';

/** What the service reads of fal's webhook body; the payload is never trusted as the result. */
export const falCallbackInput = z
  .looseObject({
    request_id: meaning(z.string().check(z.minLength(1), z.maxLength(200)), "fal's request id: one of the job's submitted requests"),
    status: z.enum(['OK', 'ERROR']).check(z.meta({ description: 'How the request ended; the service asks fal for the result either way' })),
  })
  .register(z.globalRegistry, { id: 'FalCallback', description: "fal.ai's completion webhook, as fal sends it (only what the service reads is listed)" });

export const providerCallbackResponse = z
  .object({
    received: meaning(z.literal(true), 'Always true: the provider need not send it again'),
    result: z.enum(['resumed', 'ignored']).check(
      z.meta({ description: '`resumed`: the job went on to fetch the result; `ignored`: the job no longer waits for that request (a redelivery, an earlier round)' }),
    ),
  })
  .register(z.globalRegistry, { id: 'ProviderCallbackReceipt', description: 'What the service did with a provider callback' });
