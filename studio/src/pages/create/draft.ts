/**
 * The New video form kept while a person goes elsewhere in the studio and comes back (this tab only:
 * sessionStorage). Everything typed and chosen is kept, the variants too (their hooks and avatars),
 * but an uploaded reference file, whose upload is used once and cannot be shown again; a link is kept. A draft from another version of the form,
 * or any text that is not one, gives the empty form.
 */
import { NO_VARIANTS, withHook, type Variants } from './batch-request';
import { CAPTION_DEFAULTS, DURATION_OPTIONS, POSITION_OPTIONS, SIZE_OPTIONS, STYLE_OPTIONS, type Caption } from './caption';
import { EMPTY_REFERENCE, type Reference } from './reference';
import { SOUND_DEFAULT, SOUND_OPTIONS, type SoundChoice } from './sound';
import type { CreateForm, Method, Mode } from './video-request';

export const DRAFT_KEY = 'reaction-studio:new-video-draft';
const VERSION = 1;

/** The form a visit starts from when nothing is kept: a product or saved reaction in the address is chosen. */
export function blankForm(params: URLSearchParams): CreateForm {
  const reactionId = params.get('reaction_id');
  return {
    productId: params.get('product_id'),
    method: reactionId ? 'reuse' : 'prompt',
    prompt: '',
    avatarId: null,
    reactionId,
    mode: 'auto',
    caption: CAPTION_DEFAULTS,
    sound: SOUND_DEFAULT,
    voiceLine: '',
  };
}

export function draftText(form: CreateForm, reference: Reference, variants: Variants = NO_VARIANTS): string {
  return JSON.stringify({ version: VERSION, form, reference: { source: reference.source, url: reference.url }, variants });
}

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
const id = (value: unknown, fallback: string | null) => (value === null || (typeof value === 'string' && /^[1-9][0-9]*$/.test(value)) ? value : fallback);
const oneOf = <T extends string>(values: readonly { value: T }[], value: unknown, fallback: T): T => values.find((option) => option.value === value)?.value ?? fallback;

const METHODS = [{ value: 'prompt' }, { value: 'motion' }, { value: 'reuse' }] as const satisfies readonly { value: Method }[];
const MODES = [{ value: 'auto' }, { value: 'preview' }] as const satisfies readonly { value: Mode }[];

function captionOf(value: unknown): Caption {
  const kept = isObject(value) ? value : {};
  return {
    text: text(kept.text, ''),
    position: oneOf(POSITION_OPTIONS, kept.position, CAPTION_DEFAULTS.position),
    size: oneOf(SIZE_OPTIONS, kept.size, CAPTION_DEFAULTS.size),
    style: oneOf(STYLE_OPTIONS, kept.style, CAPTION_DEFAULTS.style),
    duration: oneOf(DURATION_OPTIONS, kept.duration, CAPTION_DEFAULTS.duration),
  };
}

function soundOf(value: unknown): SoundChoice {
  const kept = isObject(value) ? value : {};
  const musicId = typeof kept.musicId === 'string' && kept.musicId ? kept.musicId : null;
  return { sound: oneOf(SOUND_OPTIONS, kept.sound, SOUND_DEFAULT.sound), musicId };
}

function formOf(kept: Loose, blank: CreateForm): CreateForm {
  return {
    productId: id(kept.productId, blank.productId),
    method: oneOf(METHODS, kept.method, blank.method),
    prompt: text(kept.prompt, ''),
    avatarId: id(kept.avatarId, null),
    reactionId: id(kept.reactionId, null),
    mode: oneOf(MODES, kept.mode, blank.mode),
    caption: captionOf(kept.caption),
    sound: soundOf(kept.sound),
    voiceLine: text(kept.voiceLine, ''),
  };
}

/** More hooks than any batch takes are not kept: a draft is a convenience, not a store. */
const KEPT_HOOKS_MAX = 50;

/** Drafts written before variants were kept have none: no variants. */
function variantsOf(value: unknown): Variants {
  if (!isObject(value)) return NO_VARIANTS;
  const hooks = (Array.isArray(value.hooks) ? value.hooks : []).filter((hook): hook is string => typeof hook === 'string').slice(0, KEPT_HOOKS_MAX);
  const avatarIds = (Array.isArray(value.avatarIds) ? value.avatarIds : []).filter((avatarId): avatarId is string => id(avatarId, null) !== null);
  return { ...hooks.reduce(withHook, { ...NO_VARIANTS, on: value.on === true }), avatarIds: [...new Set(avatarIds)] };
}

export interface Restored {
  form: CreateForm;
  reference: Reference;
  variants: Variants;
  /** Whether a kept draft filled in something (a draft of the empty form restores nothing). */
  restored: boolean;
}

/** The form a visit starts from: the kept draft if there is one, with a product or saved reaction in the address chosen over it. */
export function restoreDraft(saved: string | null, params: URLSearchParams): Restored {
  const blank = blankForm(params);
  let kept: unknown;
  try {
    kept = saved ? JSON.parse(saved) : null;
  } catch {
    kept = null;
  }
  if (!isObject(kept) || kept.version !== VERSION || !isObject(kept.form)) return { form: blank, reference: EMPTY_REFERENCE, variants: NO_VARIANTS, restored: false };
  const form = formOf(kept.form, blank);
  if (params.get('product_id')) form.productId = blank.productId;
  if (params.get('reaction_id')) Object.assign(form, { method: 'reuse', reactionId: blank.reactionId });
  const reference = isObject(kept.reference) && kept.reference.source === 'link' ? { ...EMPTY_REFERENCE, source: 'link' as const, url: text(kept.reference.url, '') } : EMPTY_REFERENCE;
  const variants = variantsOf(kept.variants);
  return { form, reference, variants, restored: draftText(form, reference, variants) !== draftText(blank, EMPTY_REFERENCE) };
}
