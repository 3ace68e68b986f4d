/**
 * Variants: the New video form made several times over as one batch (POST /videos/batch), one video
 * per hook and, optionally, per avatar (every hook with every avatar). Each variant is the form's own
 * request with its hook and avatar, so it is judged by the same rules; what only a batch can get wrong
 * (too few or too many variants, one uploaded reference for several) is said first.
 */
import type { paths } from '#client/types';
import { overLimit } from '../../intake/text-count';
import { TEXT_LIMITS } from '../../intake/limits';
import type { Reference } from './reference';
import { videoRequest, type CreateForm } from './video-request';

export type CreateBatchBody = paths['/videos/batch']['post']['requestBody']['content']['application/json'];

/** The API's most variants in one batch (BATCH_LIMITS.maxVariants; test/studio/batch-request.test.ts holds it). */
export const MAX_VARIANTS = 20;

export interface Variants {
  /** Making variants rather than one video. */
  on: boolean;
  /** One video each; none: the form's own hook alone. */
  hooks: string[];
  /** With every hook; none: the form's own avatar. Not for a saved reaction, whose avatar is its own. */
  avatarIds: string[];
}

export const NO_VARIANTS: Variants = { on: false, hooks: [], avatarIds: [] };

/** Adds a hook once (the same text twice would make the same video twice). */
export function withHook(variants: Variants, hook: string): Variants {
  const text = hook.trim();
  return text && !variants.hooks.includes(text) ? { ...variants, hooks: [...variants.hooks, text] } : variants;
}

const takesAvatars = (form: Pick<CreateForm, 'method'>) => form.method !== 'reuse';

/** The hooks and avatars each variant gets, in order: every avatar under the first hook, then the next hook. */
export function variantPairs(form: Pick<CreateForm, 'method' | 'avatarId' | 'caption'>, variants: Variants): { hook: string; avatarId: string | null }[] {
  const hooks = variants.hooks.length ? variants.hooks : [form.caption.text];
  const avatars: (string | null)[] = takesAvatars(form) && variants.avatarIds.length ? variants.avatarIds : [form.avatarId];
  return hooks.flatMap((hook) => avatars.map((avatarId) => ({ hook, avatarId })));
}

const quoted = (hook: string) => `“${[...hook.trim()].length > 30 ? `${[...hook.trim()].slice(0, 29).join('')}…` : hook.trim()}”`;

/** The batch, or what to change first in words. */
export function batchRequest(form: CreateForm, reference: Reference, variants: Variants): CreateBatchBody | string {
  const pairs = variantPairs(form, variants);
  if (pairs.length < 2) return 'Add at least two hooks (or choose two avatars) to make variants.';
  if (pairs.length > MAX_VARIANTS) return `That makes ${pairs.length} videos: a batch makes at most ${MAX_VARIANTS}. Remove some hooks or avatars.`;
  if (form.method === 'motion' && reference.source === 'upload') return 'An uploaded reference clip goes into one video only: give a link to it instead to make variants.';
  const tooLong = variants.hooks.find((hook) => overLimit(TEXT_LIMITS.hookText, hook, 'The hook'));
  if (tooLong !== undefined) return `${overLimit(TEXT_LIMITS.hookText, tooLong, `The hook ${quoted(tooLong)}`)}`;
  const bodies = [];
  for (const { hook, avatarId } of pairs) {
    const body = videoRequest({ ...form, avatarId, caption: { ...form.caption, text: hook } }, reference);
    if (typeof body === 'string') return body;
    const { product_id: productId, ...variant } = body;
    void productId;
    bodies.push(variant);
  }
  return { product_id: Number(form.productId), variants: bodies };
}
