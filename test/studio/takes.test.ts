/**
 * A preview job's takes on its page (studio/src/pages/jobs/take-words.ts) and what Approve sends for
 * the one picked (approve-request.ts): the take named, and only the changes against that take's own
 * inputs; every body passes the API's schema.
 */
import type { Take } from '#client/types';
import { approveVideoInput } from '#domain/schemas/video';
import { captionOfJob } from '../../studio/src/pages/create/caption';
import { approveBody } from '../../studio/src/pages/jobs/approve-request';
import { defaultTake, takeLabel } from '../../studio/src/pages/jobs/take-words';

const options = (changes: Partial<Take['options']> = {}): Take['options'] => ({
  prompt: 'shocked by the price',
  avatar_id: null,
  video_source: null,
  reference_url: null,
  hook_text: 'Wait for the glow',
  hook_position: 'top',
  hook_size: 'medium',
  hook_style: 'outline',
  hook_duration: 'reaction',
  sound: 'auto',
  music_id: null,
  voice_line: null,
  ...changes,
});
const take = (n: number, current: boolean, changes: Partial<Take['options']> = {}) => ({ take: n, current, options: options(changes) });

test('the take picked at first is the one the job stands on, else the newest', () => {
  expect(defaultTake([take(1, false), take(2, true), take(3, false)])).toBe(2);
  // While a regenerate makes the next take no take is current.
  expect(defaultTake([take(1, false), take(2, false)])).toBe(2);
  expect(defaultTake([])).toBeNull();
});

test('each take says what differs from the one before it', () => {
  const takes = [take(1, false), take(2, false), take(3, false, { prompt: 'amazed', sound: 'music', music_id: 'soft-keys' }), take(4, true, { prompt: 'amazed', sound: 'music', music_id: 'soft-keys', hook_style: 'box' })];
  expect(takes.map((t, i) => takeLabel(t, takes[i - 1]))).toEqual(['Take 1 · first', 'Take 2 · new seed', 'Take 3 · prompt, sound and music changed', 'Take 4 · caption style changed']);
});

test("approving an earlier take names it, and sends nothing more when its caption and sound are kept as they were", () => {
  const first = options({ hook_style: 'box' });
  const body = approveBody(first, captionOfJob(first), { sound: 'auto', musicId: null }, 1);
  expect(body).toEqual({ take: 1 });
  expect(approveVideoInput.safeParse(body).success).toBe(true);
});

test("the changes are measured against the picked take's inputs, not the job's newest", () => {
  const first = options({ hook_style: 'box', sound: 'music', music_id: 'soft-keys' });
  const body = approveBody(first, { ...captionOfJob(first), text: '  Glow in 7 days ', style: 'glow' }, { sound: 'music', musicId: 'soft-keys' }, 1);
  expect(body).toEqual({ take: 1, hook_text: 'Glow in 7 days', hook_style: 'glow' });
  expect(approveVideoInput.safeParse(body).success).toBe(true);
  // An emptied caption drops it; music without a track is not sent and says so.
  expect(approveBody(first, { ...captionOfJob(first), text: ' ' }, { sound: 'none', musicId: null })).toEqual({ hook_text: null, sound: 'none' });
  expect(approveBody(first, captionOfJob(first), { sound: 'music', musicId: null }, 1)).toBe('Choose a music track, or another sound.');
});
