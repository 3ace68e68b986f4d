/** A dry run's answer (POST /videos and regenerate with `?dry_run=true`; functions/domain/quote.ts). */
import * as z from 'zod/mini';

const count = z.int().check(z.nonnegative());
const units = (what: string) => count.check(z.meta({ description: what }));

export const videoQuoteResponse = z
  .object({
    valid: z.literal(true).check(z.meta({ description: 'Every check of the real request passed (a failing one answers its error instead)' })),
    units: count.check(z.meta({ description: 'Allowance units the request would reserve: 1, or 0 for a repeat of an earlier request with its Idempotency-Key' })),
    allowance: z
      .object({
        limit: units("The plan's videos a billing period"),
        used: units('Charged this period'),
        reserved: units('Held by jobs still running'),
        remaining: units('What is left to reserve'),
      })
      .check(z.meta({ description: "This month's allowance now, as GET /usage shows it; the dry run reserved nothing" })),
    estimated_seconds: z
      .int()
      .check(
        z.positive(),
        z.meta({
          description:
            'About how long the job would take to its next stop (auto: done; preview and regenerate: preview_ready): the median of this stack\'s latest jobs of the same kind, request to stop, queue included; a table measured on an idle stack until a kind has 5 of them',
        }),
      ),
  })
  .register(z.globalRegistry, { id: 'VideoQuote', description: 'What a request would take, from a dry run (`?dry_run=true`): nothing was made or reserved' });
