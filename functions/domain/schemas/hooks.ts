import * as z from 'zod/mini';
import { idField } from './common';
import { recordId } from './envelope';

export const hookRequest = z.strictObject({ product_id: idField });

/** What every engine's ideas must satisfy before a client sees them: any one fits `hook_text`. */
export const HOOK_IDEAS_PER_REQUEST = 10;
export const HOOK_TEXT_MAX = 100;

const HOOK_FORMATS = [
  'pov', 'question', 'curiosity_gap', 'challenge', 'confession', 'listicle', 'before_after', 'warning', 'social_proof', 'story',
] as const;

export const hookIdeasResponse = z
  .object({
    product_id: recordId,
    hooks: z.array(z.object({ text: z.string().check(z.minLength(1), z.maxLength(HOOK_TEXT_MAX)), format: z.enum(HOOK_FORMATS) })),
  })
  .register(z.globalRegistry, { id: 'HookIdeas', description: `${HOOK_IDEAS_PER_REQUEST} caption ideas; any one fits a job's hook_text` });
