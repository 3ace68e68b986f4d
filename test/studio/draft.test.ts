/** The New video form kept across navigation (studio/src/pages/create/draft.ts): what is kept, what is not, what wins. */
import { NO_VARIANTS } from '../../studio/src/pages/create/batch-request';
import { CAPTION_DEFAULTS } from '../../studio/src/pages/create/caption';
import { blankForm, draftText, restoreDraft } from '../../studio/src/pages/create/draft';
import { EMPTY_REFERENCE } from '../../studio/src/pages/create/reference';
import type { CreateForm } from '../../studio/src/pages/create/video-request';

const none = new URLSearchParams();

const typed: CreateForm = {
  productId: '3',
  method: 'motion',
  prompt: 'shocked by the price',
  avatarId: '5',
  reactionId: null,
  mode: 'preview',
  caption: { text: 'Wait for it', position: 'bottom', size: 'large', style: 'box', duration: 'full' },
  sound: { sound: 'music', musicId: 'lofi-study' },
  voiceLine: 'No way',
};

test('everything typed and chosen comes back as it was', () => {
  expect(restoreDraft(draftText(typed, EMPTY_REFERENCE), none)).toEqual({ form: typed, reference: EMPTY_REFERENCE, variants: NO_VARIANTS, restored: true });
});

test('the variants come back too: on, their hooks and their avatars', () => {
  const variants = { on: true, hooks: ['Wait for it', 'POV: 7am skin'], avatarIds: ['5', '8'] };
  expect(restoreDraft(draftText(typed, EMPTY_REFERENCE, variants), none).variants).toEqual(variants);
  // Variants alone (the form otherwise empty) are a draft worth restoring.
  expect(restoreDraft(draftText(blankForm(none), EMPTY_REFERENCE, { on: true, hooks: [], avatarIds: [] }), none).restored).toBe(true);
});

test('kept variants are checked like the rest: hooks as strings once each, avatars as ids; a draft from before variants has none', () => {
  const tampered = JSON.stringify({
    version: 1,
    form: typed,
    variants: { on: 'yes', hooks: ['A', ' A ', 7, '', 'B'], avatarIds: ['5', '5', 'x', 9, '0'] },
  });
  expect(restoreDraft(tampered, none).variants).toEqual({ on: false, hooks: ['A', 'B'], avatarIds: ['5'] });
  expect(restoreDraft(JSON.stringify({ version: 1, form: typed }), none).variants).toEqual(NO_VARIANTS);
});

test('a draft of the empty form restores nothing', () => {
  expect(restoreDraft(draftText(blankForm(none), EMPTY_REFERENCE), none).restored).toBe(false);
});

test('a reference link is kept; an uploaded reference file is not (its upload is used once and cannot be shown again)', () => {
  const link = { source: 'link' as const, url: 'https://www.tiktok.com/@a/video/1', uploadId: null, uploading: false };
  expect(restoreDraft(draftText(typed, link), none).reference).toEqual(link);
  const uploaded = { source: 'upload' as const, url: '', uploadId: '0b7c1f7e-7f61-4a64-9d0a-8b3a0b0d3f11', uploading: false };
  expect(restoreDraft(draftText(typed, uploaded), none).reference).toEqual(EMPTY_REFERENCE);
});

test('a product or saved reaction in the address is chosen over the draft', () => {
  const { form } = restoreDraft(draftText(typed, EMPTY_REFERENCE), new URLSearchParams('product_id=9&reaction_id=4'));
  expect(form).toMatchObject({ productId: '9', method: 'reuse', reactionId: '4', prompt: 'shocked by the price', caption: typed.caption });
});

test('no draft, another version of it, or text that is not one: the empty form', () => {
  const blank = { form: blankForm(none), reference: EMPTY_REFERENCE, variants: NO_VARIANTS, restored: false };
  expect(restoreDraft(null, none)).toEqual(blank);
  expect(restoreDraft('{not json', none)).toEqual(blank);
  expect(restoreDraft(JSON.stringify({ version: 0, form: typed }), none)).toEqual(blank);
  expect(blankForm(new URLSearchParams('reaction_id=4'))).toMatchObject({ method: 'reuse', reactionId: '4', caption: CAPTION_DEFAULTS });
});

test("a value the form has no place for is not taken: each field falls back to its default", () => {
  const tampered = JSON.stringify({
    version: 1,
    form: { ...typed, method: 'teleport', productId: '3; drop', avatarId: 7, mode: 42, caption: { text: 5, style: 'neon' }, sound: { sound: 'loud', musicId: 3 }, voiceLine: null },
  });
  expect(restoreDraft(tampered, none).form).toEqual({ ...blankForm(none), prompt: 'shocked by the price', productId: null });
});
