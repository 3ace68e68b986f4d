/** How the analytics breakdowns name their rows (studio/src/pages/analytics/breakdown-words.ts). */
import { channelRowName, engagementRate, hookResult, videoRowName, videoStillThere } from '../../studio/src/pages/analytics/breakdown-words';

const figures = { views: 200, likes: 9, comments: 2, shares: 1, posts: 1 };

describe('a video row', () => {
  test('is titled as the studio titles the video everywhere: product · hook', () => {
    const row = { video_id: 4, product_name: 'Glow Serum', hook_text: 'Wait for it', ...figures };
    expect(videoRowName(row)).toBe('Glow Serum · Wait for it');
    expect(videoStillThere(row)).toBe(true);
  });

  test('a deleted video keeps its number, and is not offered to open', () => {
    const row = { video_id: 4, product_name: null, hook_text: null, ...figures };
    expect(videoRowName(row)).toBe('Video #4');
    expect(videoStillThere(row)).toBe(false);
  });
});

test('a channel row: its network and name, or its id, or the network alone', () => {
  const row = { provider: 'provider_a' as const, channel_id: 'ch-1', platform: 'tiktok' as const, name: 'Glow Labs', ...figures };
  expect(channelRowName(row)).toBe('TikTok · Glow Labs');
  expect(channelRowName({ ...row, name: null })).toBe('TikTok · ch-1');
  expect(channelRowName({ ...row, name: null, channel_id: null })).toBe('TikTok');
  expect(channelRowName({ ...row, platform: null })).toBe('Another network · Glow Labs');
});

test('engagement: likes, comments and shares per view, one decimal under 10%; a dash without views', () => {
  expect(engagementRate(figures)).toBe('6.0%');
  expect(engagementRate({ ...figures, likes: 50 })).toBe('27%');
  expect(engagementRate({ ...figures, views: 0 })).toBe('–');
});

test('the best hook’s result in a line', () => {
  expect(hookResult({ views: 640, videos: 2 })).toBe('640 views from 2 videos');
  expect(hookResult({ views: 1, videos: 1 })).toBe('1 view from 1 video');
});
