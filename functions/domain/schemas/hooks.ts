import * as z from 'zod/mini';
import { idField } from './common';
import { recordId } from './envelope';

export const hookRequest = z.strictObject({ product_id: idField.check(z.meta({ description: 'The product to write captions for (from its name and description)' })) });

/** What every engine's ideas must satisfy before a client sees them: any one fits `hook_text`. */
export const HOOK_IDEAS_PER_REQUEST = 10;
export const HOOK_TEXT_MAX = 100;

const HOOK_FORMATS = [
  'pov', 'question', 'curiosity_gap', 'challenge', 'confession', 'listicle', 'before_after', 'warning', 'social_proof', 'story',
] as const;

export const hookIdeasResponse = z
  .object({
    product_id: recordId.check(z.meta({ description: 'The product they are for' })),
    hooks: z
      .array(
        z.object({
          text: z.string().check(z.minLength(1), z.maxLength(HOOK_TEXT_MAX), z.meta({ description: "The caption: use it as a job's `hook_text`" })),
          format: z.enum(HOOK_FORMATS).check(z.meta({ description: 'The kind of hook it is (a point of view, a question, a curiosity gap...)' })),
        }),
      )
      .check(z.meta({ description: 'The ideas, best first' })),
  })
  .register(z.globalRegistry, { id: 'HookIdeas', description: `${HOOK_IDEAS_PER_REQUEST} caption ideas; any one fits a job's hook_text` });
