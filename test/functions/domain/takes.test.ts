import { AppError } from '#domain/errors';
import { jobObjectKeys } from '#domain/jobs';
import { chosenTake, changesOfChosenTake, isCurrentTake, takeFilesKept, takeNumberOfRound, takeOfRound, takesOf, takeView, withTake, type JobTake } from '#domain/takes';
import { NOW, previewReadyJob, previewReadyJobWithTakes } from '#test-support/video-jobs';

const ACCOUNT = 3;
const keysOf = (round: number) => jobObjectKeys(ACCOUNT, 1, round);
const jobWithRounds = (rounds: number) => previewReadyJobWithTakes(ACCOUNT, 1, ['shocked', 'laughing', 'crying'].slice(0, rounds));

function badTake(check: () => unknown): AppError {
  try {
    check();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 400, code: 'bad_request', param: 'take' });
    return error as AppError;
  }
  throw new Error('expected a 400 naming take');
}

describe('take numbers', () => {
  test('the first preview is take 1, and each regeneration makes the next', () => {
    expect([0, 1, 2, 20].map(takeNumberOfRound)).toEqual([1, 2, 3, 21]);
  });

  test('a job keeps every take, oldest first, each with the prompt that made it', () => {
    const takes = takesOf(jobWithRounds(3));
    expect(takes.map((take) => [take.take, take.options.prompt, take.reaction.key, take.preview.key])).toEqual([
      [1, 'shocked', keysOf(0).reaction, keysOf(0).preview],
      [2, 'laughing', keysOf(1).reaction, keysOf(1).preview],
      [3, 'crying', keysOf(2).reaction, keysOf(2).preview],
    ]);
  });

  test('a retried preview step records its take once, in its place', () => {
    const job = jobWithRounds(2);
    const again = takeOfRound(job, job.reaction!, { ...job.preview!, duration_s: 9 }, '2026-03-01T11:00:00.000Z');
    expect(withTake(job, again).map((take) => [take.take, take.preview.duration_s, take.created_at])).toEqual([
      [1, 4, NOW.toISOString()],
      [2, 9, '2026-03-01T11:00:00.000Z'],
    ]);
  });

  test('a take records the inputs that made it, with the defaults of fields older records lack', () => {
    const job = previewReadyJob(ACCOUNT, 1, { hook_text: 'Wait', hook_style: undefined, hook_duration: undefined, sound: undefined, music_id: undefined, voice_line: undefined });
    expect(takeOfRound(job, job.reaction!, job.preview!, job.updated_at).options).toEqual({
      prompt: 'amazed',
      avatar_id: null,
      video_source: null,
      reference_url: null,
      reference_key: null,
      hook_text: 'Wait',
      hook_position: 'top',
      hook_size: 'medium',
      hook_style: 'outline',
      hook_duration: 'reaction',
      sound: 'auto',
      music_id: null,
      voice_line: null,
    });
  });

  test('a job that showed its preview before takes were recorded has that preview as its one take, under its round', () => {
    const legacy = previewReadyJob(ACCOUNT, 1, { regenerations: 2, takes: undefined });
    expect(takesOf(legacy).map((take) => [take.take, take.reaction.key, take.created_at])).toEqual([[3, legacy.reaction!.key, legacy.updated_at]]);
  });

  test('an auto job, and a preview job before its first preview, have no takes', () => {
    expect(takesOf(previewReadyJob(ACCOUNT, 1, { mode: 'auto', status: 'done', preview: null }))).toEqual([]);
    expect(takesOf(previewReadyJob(ACCOUNT, 1, { status: 'processing', preview: null }))).toEqual([]);
  });
});

describe('choosing a take', () => {
  test('approve without a take finishes the newest', () => {
    expect(chosenTake(jobWithRounds(3), undefined).take).toBe(3);
  });

  test('a named take is that one, whichever came later', () => {
    const take = chosenTake(jobWithRounds(3), 1);
    expect(take).toMatchObject({ take: 1, reaction: { key: keysOf(0).reaction }, preview: { key: keysOf(0).preview, still_key: keysOf(0).previewStill } });
  });

  test.each([0, 4, 99])('take %i on a job with takes 1 to 3 is a 400 naming take and the takes there are', (requested) => {
    expect(badTake(() => chosenTake(jobWithRounds(3), requested)).message).toMatch(/no take \d+; its takes are 1 to 3/);
  });

  test('on a job with one take the message names it', () => {
    expect(badTake(() => chosenTake(jobWithRounds(1), 2)).message).toMatch(/its takes are 1 \(/);
  });

  test('a job with no take yet has nothing to choose: 409', () => {
    expect(() => chosenTake(previewReadyJob(ACCOUNT, 1, { preview: null }), undefined)).toThrow(expect.objectContaining({ status: 409, code: 'conflict' }));
  });

  test("approving a take puts its clip, its preview and its inputs back on the job", () => {
    const job = jobWithRounds(2);
    const first = chosenTake(job, 1);
    expect(changesOfChosenTake(first)).toMatchObject({ reaction: first.reaction, preview: first.preview, prompt: 'shocked' });
    // The storage key of its reference clip goes back too: the job record says what made the video.
    expect(changesOfChosenTake(first)).toHaveProperty('reference_key', null);
  });
});

describe('the current take and what clients see', () => {
  test('the current take is the one whose clip the job holds: the newest at preview_ready, the approved one after', () => {
    const job = jobWithRounds(2);
    const [first, second] = takesOf(job) as [JobTake, JobTake];
    expect([isCurrentTake(job, first), isCurrentTake(job, second)]).toEqual([false, true]);
    const approved = { ...job, ...changesOfChosenTake(first) };
    expect([isCurrentTake(approved, first), isCurrentTake(approved, second)]).toEqual([true, false]);
    // While a regenerate makes the next take, the job holds no take's clip.
    expect(isCurrentTake({ reaction: null }, first)).toBe(false);
  });

  test("a take's files are there until the job ends", () => {
    expect((['queued', 'processing', 'preview_ready'] as const).map((status) => takeFilesKept({ status }))).toEqual([true, true, true]);
    expect((['done', 'failed'] as const).map((status) => takeFilesKept({ status }))).toEqual([false, false]);
  });

  test('the view shows the links it is given, the preview length and the inputs without the storage key', () => {
    const take = takesOf(jobWithRounds(1))[0]!;
    const view = takeView(take, true, { url: 'https://media.example/p.mp4', expiresAt: '2026-03-02T10:00:00.000Z', stillUrl: 'https://media.example/s.jpg' });
    expect(view).toEqual({
      take: 1,
      current: true,
      preview_url: 'https://media.example/p.mp4',
      preview_url_expires_at: '2026-03-02T10:00:00.000Z',
      preview_still_url: 'https://media.example/s.jpg',
      duration_s: 4,
      options: expect.objectContaining({ prompt: 'shocked', hook_style: 'outline' }),
      created_at: NOW.toISOString(),
    });
    expect(view.options).not.toHaveProperty('reference_key');
    expect(takeView(take, false)).toMatchObject({ preview_url: null, preview_url_expires_at: null, preview_still_url: null });
  });
});
