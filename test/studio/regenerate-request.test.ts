/**
 * The Regenerate panel's request (studio/src/pages/jobs/regenerate-request.ts), without a browser: the
 * form starts as the job left it and sends only what changed, the sound and the voice line as the
 * new-video form sends them, and every body passes the API's schema.
 */
import { regenerateVideoInput } from '#domain/schemas/video';
import { EMPTY_REFERENCE } from '../../studio/src/pages/create/reference';
import { regenerateFormOf, regenerateRequest, VOICE_LINE_KEPT } from '../../studio/src/pages/jobs/regenerate-request';

const promptJob = { method: 'prompt' as const, prompt: 'shocked by the price', avatar_id: null, sound: 'auto' as const, music_id: null, voice_line: null };
const motionJob = { method: 'motion' as const, prompt: null, avatar_id: 4, sound: 'music' as const, music_id: 'toy-box', voice_line: 'no way' };

test('the form starts as the job left it, and left so asks for a new seed only', () => {
  expect(regenerateFormOf(motionJob)).toEqual({ prompt: '', avatarId: '4', reference: null, sound: { sound: 'music', musicId: 'toy-box' }, voiceLine: 'no way' });
  expect(regenerateRequest(regenerateFormOf(promptJob), promptJob)).toEqual({});
  expect(regenerateRequest(regenerateFormOf(motionJob), motionJob)).toEqual({});
});

test('a new sound and voice line go with a changed prompt, as the new-video form sends them', () => {
  const form = { ...regenerateFormOf(promptJob), prompt: ' amazed, then laughing ', sound: { sound: 'music' as const, musicId: 'lofi-study' }, voiceLine: '  Wait, is that real?  ' };
  expect(regenerateRequest(form, promptJob)).toEqual({ prompt: 'amazed, then laughing', sound: 'music', music_id: 'lofi-study', voice_line: 'Wait, is that real?' });
});

test("the sound is sent only when it differs from the job's; music without a track is not sent and says so", () => {
  const form = regenerateFormOf(motionJob);
  expect(regenerateRequest({ ...form, sound: { sound: 'music', musicId: 'toy-box' } }, motionJob)).toEqual({});
  expect(regenerateRequest({ ...form, sound: { sound: 'auto', musicId: 'toy-box' } }, motionJob)).toEqual({ sound: 'auto' });
  expect(regenerateRequest({ ...regenerateFormOf(promptJob), sound: { sound: 'music', musicId: null } }, promptJob)).toBe('Choose a music track, or another sound.');
});

test('a voice line is sent when new or changed; one the job has cannot be cleared, and the panel says so', () => {
  expect(regenerateRequest({ ...regenerateFormOf(promptJob), voiceLine: '   ' }, promptJob)).toEqual({});
  expect(regenerateRequest({ ...regenerateFormOf(motionJob), voiceLine: 'no way ' }, motionJob)).toEqual({});
  expect(regenerateRequest({ ...regenerateFormOf(motionJob), voiceLine: 'oh wow' }, motionJob)).toEqual({ voice_line: 'oh wow' });
  expect(regenerateRequest({ ...regenerateFormOf(motionJob), voiceLine: ' ' }, motionJob)).toBe(VOICE_LINE_KEPT);
});

test("a motion job's avatar and new reference are sent; an unfinished reference says what is missing first", () => {
  const form = { ...regenerateFormOf(motionJob), avatarId: '7', reference: { ...EMPTY_REFERENCE, source: 'link' as const, url: ' https://example.com/move.mp4 ' } };
  expect(regenerateRequest(form, motionJob)).toEqual({ avatar_id: 7, video_source: 'link', reference_url: 'https://example.com/move.mp4' });
  const uploading = { ...form, reference: { ...EMPTY_REFERENCE, uploading: true }, sound: { sound: 'music' as const, musicId: null } };
  expect(regenerateRequest(uploading, motionJob)).toBe('Wait for the reference video to finish uploading.');
  // A prompt job's form never sends an avatar or a reference: those are 400 on a prompt job.
  expect(regenerateRequest({ ...regenerateFormOf(promptJob), avatarId: '7', reference: form.reference }, promptJob)).toEqual({});
});

test('every body the panel sends passes the API schema', () => {
  const bodies = [
    regenerateRequest({ ...regenerateFormOf(promptJob), prompt: 'laughing', sound: { sound: 'music', musicId: 't12' }, voiceLine: 'no way' }, promptJob),
    regenerateRequest({ ...regenerateFormOf(motionJob), avatarId: '9', reference: { ...EMPTY_REFERENCE, uploadId: '0b7c6f9e-1d2a-4c3b-9e8f-7a6b5c4d3e2f' }, sound: { sound: 'none', musicId: null } }, motionJob),
  ];
  for (const body of bodies) {
    expect(typeof body).toBe('object');
    expect(regenerateVideoInput.safeParse(body).error).toBeUndefined();
  }
});
