import { AppError } from '#domain/errors';
import { parseInput } from '#http/validate';
import {
  CAPTION_LIMITS,
  CAPTION_MAX,
  captionOverLimit,
  checkCaption,
  createPostInput,
  deletedResults,
  mediaUrlTtlS,
  mergeResults,
  parseScheduleAt,
  pickChannels,
  postFieldsOfForm,
  type PostResult,
} from '#domain/social-post';
import { ANALYTICS_DAYS, buildOverview, daysParam } from '#domain/analytics';
import type { Channel } from '#domain/social';

const NOW = new Date('2030-06-15T12:00:00Z');

function badRequestOf(check: () => unknown): string {
  try {
    check();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 400, code: 'bad_request' });
    return (error as AppError).message;
  }
  throw new Error('expected a 400');
}

const valid = { provider: 'provider_a', video_id: 1, account_ids: ['a'] };

describe('the post create input', () => {
  test('takes the documented fields, ids as numbers or digit strings', () => {
    expect(parseInput(createPostInput, { ...valid, video_id: '7', caption: '', schedule_at: null, draft: true })).toMatchObject({ video_id: 7, draft: true });
  });

  test.each([
    [{ ...valid, provider: 'provider_c' }, 'provider'],
    [{ ...valid, video_id: 0 }, 'video_id'],
    [{ ...valid, account_ids: [] }, 'account_ids'],
    [{ ...valid, account_ids: 'a' }, 'account_ids'],
    [{ ...valid, account_ids: ['a', 'a'] }, 'account_ids'],
    [{ ...valid, account_ids: Array.from({ length: 21 }, (_, i) => `c${i}`) }, 'account_ids'],
    [{ ...valid, account_ids: [''] }, 'account_ids'],
    [{ ...valid, caption: 5 }, 'caption'],
    [{ ...valid, caption: 'x'.repeat(CAPTION_MAX + 1) }, 'caption'],
    [{ ...valid, draft: 'true' }, 'draft'],
    [{ ...valid, schedule_at: 5 }, 'schedule_at'],
    [{ ...valid, colour: 'red' }, 'colour'],
    [{ video_id: 1, account_ids: ['a'] }, 'provider'],
  ])('%j is a 400 naming %s', (body, field) => {
    expect(badRequestOf(() => parseInput(createPostInput, body, 'post'))).toContain(field);
  });

  test('form bodies: comma-separated account_ids, draft as true/false, an empty schedule_at means now', () => {
    expect(postFieldsOfForm({ account_ids: 'a, b', draft: 'false', schedule_at: '' })).toEqual({ account_ids: ['a', 'b'], draft: false });
    expect(postFieldsOfForm({ draft: 'yes' })).toEqual({ draft: 'yes' });
  });
});

describe('schedule_at', () => {
  test.each(['2030-06-15T13:00:00Z', '2030-06-15T14:00+01:00', '2030-06-15T12:00:01.5Z', '2031-06-15T12:00:00Z'])('%s is accepted', (raw) => {
    expect(parseScheduleAt(raw, NOW).getTime()).toBe(new Date(raw).getTime());
  });

  test.each([
    ['2030-06-15T13:00:00', 'offset'],
    ['2030-06-15', 'offset'],
    ['tomorrow', 'offset'],
    ['2030-02-30T10:00:00Z', 'not a valid'],
    ['2030-06-15T24:00:00Z', 'not a valid'],
    ['2030-06-15T12:00:00Z', 'future'],
    ['2030-06-15T11:00:00Z', 'future'],
    ['2031-06-15T12:00:01Z', '365 days'],
  ])('%s is a 400 (%s)', (raw, why) => {
    const message = badRequestOf(() => parseScheduleAt(raw, NOW));
    expect(message).toContain('schedule_at');
    expect(message).toContain(why);
  });
});

const channel = (id: string, platform: Channel['platform'], active = true): Channel => ({ id, platform, name: id, username: null, active });

describe('channels and captions', () => {
  const channels = [channel('tt', 'tiktok'), channel('x1', 'x'), channel('off', 'instagram', false)];

  test('picks the named active channels in the order asked', () => {
    expect(pickChannels('provider_b', ['x1', 'tt'], channels).map((c) => c.id)).toEqual(['x1', 'tt']);
  });

  test('unknown and inactive ids are a 400 naming each', () => {
    const message = badRequestOf(() => pickChannels('provider_b', ['tt', 'nope', 'off'], channels));
    expect(message).toContain('account_ids');
    expect(message).toContain('nope');
    expect(message).toContain('off');
    expect(message).not.toMatch(/\btt\b/);
  });

  test('the strictest network limit of the chosen channels applies, counted in code points', () => {
    expect(CAPTION_LIMITS.x).toBe(280);
    expect(captionOverLimit('😀'.repeat(280), [channels[0]!, channels[1]!])).toBeNull();
    expect(captionOverLimit('a'.repeat(281), [channels[0]!, channels[1]!])).toEqual({ platform: 'x', limit: 280, length: 281 });
    expect(captionOverLimit('a'.repeat(281), [channels[0]!])).toBeNull();
    const message = badRequestOf(() => checkCaption('a'.repeat(301), [channel('b', 'bluesky'), channel('t', 'threads')]));
    expect(message).toContain('caption');
    expect(message).toContain('bluesky');
    expect(message).toContain('300');
  });
});

describe('per-channel results', () => {
  const known: PostResult[] = [
    { account_id: 'a', platform: 'tiktok', status: 'pending', url: null, error: null },
    { account_id: 'b', platform: 'x', status: 'pending', url: null, error: null },
  ];

  test('take what the provider reports, keep what it is silent on, append the unexpected', () => {
    const merged = mergeResults(known, [
      { channelId: 'b', platform: 'x', status: 'published', url: 'https://x.example/1', error: null },
      { channelId: 'c', platform: 'threads', status: 'failed', url: null, error: 'nope' },
    ]);
    expect(merged.map((r) => [r.account_id, r.status])).toEqual([
      ['a', 'pending'],
      ['b', 'published'],
      ['c', 'failed'],
    ]);
  });

  test('after a delete what went out or waited is deleted; failures stay failures', () => {
    const results = deletedResults([{ ...known[0]!, status: 'published' }, known[1]!, { ...known[1]!, account_id: 'f', status: 'failed' }]);
    expect(results.map((r) => r.status)).toEqual(['deleted', 'deleted', 'failed']);
  });
});

test('media URLs live a day, or until a day past the schedule (a year ahead at most, so a year and a day)', () => {
  const hours = (h: number) => new Date(NOW.getTime() + h * 3600_000);
  expect(mediaUrlTtlS(null, NOW)).toBe(86_400);
  expect(mediaUrlTtlS(hours(1), NOW)).toBe(25 * 3600);
  expect(mediaUrlTtlS(hours(48), NOW)).toBe(72 * 3600);
  expect(mediaUrlTtlS(hours(24 * 30), NOW)).toBe(31 * 86_400);
  expect(mediaUrlTtlS(hours(24 * 365), NOW)).toBe(366 * 86_400);
});

describe('analytics', () => {
  test.each([undefined, '1', '365'])('days=%s is accepted', (raw) => {
    expect(daysParam(raw)).toBe(raw === undefined ? ANALYTICS_DAYS.default : Number(raw));
  });

  test.each(['0', '366', '-1', '1.5', 'abc', '', '7d'])('days=%s is a 400', (raw) => {
    expect(badRequestOf(() => daysParam(raw))).toContain('days');
  });

  test('the overview cuts each cache to the window, adds up, and fills every day', () => {
    const day = (date: string, views: number) => ({ date, views, likes: 1, comments: 0, shares: 0, posts: 1 });
    const overview = buildOverview(3, NOW, ['provider_a', 'provider_b'], [
      { provider: 'provider_a', days: 30, synced_at: NOW.toISOString(), totals: { views: 0, likes: 0, comments: 0, shares: 0, posts: 0 }, daily: [day('2030-06-01', 100), day('2030-06-14', 10), day('2030-06-15', 5)] },
    ]);
    expect(overview).toMatchObject({ days: 3, since: '2030-06-13', until: '2030-06-15' });
    expect(overview.totals).toEqual({ views: 15, likes: 2, comments: 0, shares: 0, posts: 2 });
    expect(overview.daily.map((d) => [d.date, d.views])).toEqual([
      ['2030-06-13', 0],
      ['2030-06-14', 10],
      ['2030-06-15', 5],
    ]);
    expect(overview.providers).toEqual([
      expect.objectContaining({ provider: 'provider_a', synced_days: 30, covers_window: true, totals: { views: 15, likes: 2, comments: 0, shares: 0, posts: 2 } }),
      { provider: 'provider_b', synced_at: null, synced_days: null, covers_window: false, totals: { views: 0, likes: 0, comments: 0, shares: 0, posts: 0 }, daily: [] },
    ]);
  });
});
