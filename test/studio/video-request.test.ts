/**
 * The create form's request (studio/src/pages/create/video-request.ts) and the approve panel's sound
 * override, without a browser: what each choice of sound sends, and the studio's copies of the API's
 * sound rules agree with the API's.
 */
import { SOUND_MODES } from '#domain/sound';
import { createVideoInput } from '#domain/schemas/video';
import { CAPTION_DEFAULTS } from '../../studio/src/pages/create/caption';
import { EMPTY_REFERENCE } from '../../studio/src/pages/create/reference';
import { SOUND_DEFAULT, SOUND_OPTIONS, soundOverride } from '../../studio/src/pages/create/sound';
import { videoRequest, type CreateForm } from '../../studio/src/pages/create/video-request';

const form = (changes: Partial<CreateForm> = {}): CreateForm => ({
  productId: '3',
  method: 'prompt',
  prompt: ' shocked by the price ',
  avatarId: null,
  reactionId: null,
  mode: 'auto',
  caption: CAPTION_DEFAULTS,
  sound: SOUND_DEFAULT,
  voiceLine: '',
  ...changes,
});

test("the studio's sound choices are the API's", () => {
  expect(SOUND_OPTIONS.map((option) => option.value)).toEqual([...SOUND_MODES]);
});

test('a hook, a prompt or a voice line past its limit is not sent, and the form says which and by how much', () => {
  expect(videoRequest(form({ caption: { ...CAPTION_DEFAULTS, text: 'x'.repeat(101) } }), EMPTY_REFERENCE)).toBe('The hook text is 1 character too long: at most 100');
  expect(videoRequest(form({ prompt: 'y'.repeat(1003) }), EMPTY_REFERENCE)).toBe('The prompt is 3 characters too long: at most 1000');
  expect(videoRequest(form({ voiceLine: 'z'.repeat(120) }), EMPTY_REFERENCE)).toBe('The voice line is 20 characters too long: at most 100');
  // Spaces around the text are not counted, as the API trims them before it counts.
  expect(videoRequest(form({ caption: { ...CAPTION_DEFAULTS, text: ` ${'x'.repeat(100)}  ` } }), EMPTY_REFERENCE)).toMatchObject({ hook_text: 'x'.repeat(100) });
});

test('auto is sent by default, with no music_id and no voice line', () => {
  expect(videoRequest(form(), EMPTY_REFERENCE)).toEqual({ product_id: 3, method: 'prompt', prompt: 'shocked by the price', mode: 'auto', hook_position: 'top', hook_size: 'medium', hook_style: 'outline', hook_duration: 'reaction', sound: 'auto' });
});

test('music sends its track; music without a track is not sent and says so', () => {
  const body = videoRequest(form({ sound: { sound: 'music', musicId: 'sunny-pop' } }), EMPTY_REFERENCE);
  expect(body).toMatchObject({ sound: 'music', music_id: 'sunny-pop' });
  expect(videoRequest(form({ sound: { sound: 'music', musicId: null } }), EMPTY_REFERENCE)).toBe('Choose a music track, or another sound.');
  // A track picked, then another sound chosen: the track stays in the form but is not sent.
  const none = videoRequest(form({ sound: { sound: 'none', musicId: 't4' } }), EMPTY_REFERENCE);
  expect(none).toMatchObject({ sound: 'none' });
  expect(none).not.toHaveProperty('music_id');
});

test('the voice line is trimmed, left out when empty, and never sent for a reuse', () => {
  expect(videoRequest(form({ voiceLine: '  wait, what?  ' }), EMPTY_REFERENCE)).toMatchObject({ voice_line: 'wait, what?' });
  expect(videoRequest(form({ voiceLine: '   ' }), EMPTY_REFERENCE)).not.toHaveProperty('voice_line');
  const reuse = videoRequest(form({ method: 'reuse', reactionId: '9', voiceLine: 'wait, what?', sound: { sound: 'music', musicId: 't12' } }), EMPTY_REFERENCE);
  expect(reuse).toEqual({ product_id: 3, method: 'reuse', reaction_id: 9, mode: 'auto', hook_position: 'top', hook_size: 'medium', hook_style: 'outline', hook_duration: 'reaction', sound: 'music', music_id: 't12' });
});

test('what the method still misses is said before the sound', () => {
  expect(videoRequest(form({ prompt: ' ', sound: { sound: 'music', musicId: null } }), EMPTY_REFERENCE)).toBe('Describe the reaction in the prompt.');
  expect(videoRequest(form({ productId: null }), EMPTY_REFERENCE)).toBe('Choose a product with a ready demo.');
});

test('every body the form sends passes the API schema', () => {
  const bodies = [
    videoRequest(form({ sound: { sound: 'music', musicId: 'lofi-study' }, voiceLine: 'no way' }), EMPTY_REFERENCE),
    videoRequest(form({ method: 'motion', avatarId: '4', sound: { sound: 'none', musicId: null } }), { ...EMPTY_REFERENCE, uploadId: '0b7c6f9e-1d2a-4c3b-9e8f-7a6b5c4d3e2f' }),
    videoRequest(form({ method: 'reuse', reactionId: '9', voiceLine: 'ignored' }), EMPTY_REFERENCE),
  ];
  for (const body of bodies) {
    expect(typeof body).toBe('object');
    expect(createVideoInput.safeParse(body).error).toBeUndefined();
  }
});

test("approve sends the sound only when it differs from the job's", () => {
  const job = { sound: 'auto' as const, music_id: null };
  expect(soundOverride({ sound: 'auto', musicId: null }, job)).toEqual({});
  expect(soundOverride({ sound: 'auto', musicId: 'sunny-pop' }, job)).toEqual({});
  expect(soundOverride({ sound: 'none', musicId: null }, job)).toEqual({ sound: 'none' });
  expect(soundOverride({ sound: 'music', musicId: 't3' }, job)).toEqual({ sound: 'music', music_id: 't3' });
  expect(soundOverride({ sound: 'music', musicId: null }, job)).toBe('Choose a music track, or another sound.');
  const musical = { sound: 'music' as const, music_id: 'toy-box' };
  expect(soundOverride({ sound: 'music', musicId: 'toy-box' }, musical)).toEqual({});
  expect(soundOverride({ sound: 'music', musicId: 'soft-keys' }, musical)).toEqual({ sound: 'music', music_id: 'soft-keys' });
  expect(soundOverride({ sound: 'auto', musicId: 'toy-box' }, musical)).toEqual({ sound: 'auto' });
});
