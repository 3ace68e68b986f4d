import { POST_FIGURES_MAX, buildBreakdowns, hookKey, keepNewestPosts, postIdsNamed, type BreakdownInput, type PostFigures } from '#domain/analytics-breakdowns';

const WINDOW = { since: '2026-02-23', until: '2026-03-01' };

const figure = (post_id: string, date: string, views: number, place: Partial<PostFigures> = {}): PostFigures => ({
  post_id,
  channel_id: null,
  platform: null,
  date,
  views,
  likes: 0,
  comments: 0,
  shares: 0,
  ...place,
});

/** Two videos with hooks, one without, and a post of provider_a on TikTok and YouTube. */
function world(overrides: Partial<BreakdownInput> = {}): BreakdownInput {
  return {
    ...WINDOW,
    figures: [
      {
        provider: 'provider_a',
        posts: [
          figure('a-1', '2026-02-28', 100, { platform: 'tiktok', likes: 10 }),
          figure('a-1', '2026-02-28', 50, { platform: 'youtube', comments: 2 }),
          figure('a-2', '2026-03-01', 400, { platform: 'tiktok' }),
        ],
      },
      {
        provider: 'provider_b',
        posts: [figure('b-1', '2026-02-27', 30, { channel_id: 'b-ig', shares: 1 }), figure('b-2', '2026-02-27', 7, { channel_id: 'b-ig' })],
      },
    ],
    ours: [
      { provider: 'provider_a', provider_post_id: 'a-1', video_id: 1, results: [{ account_id: 'a-tt', platform: 'tiktok' }, { account_id: 'a-yt', platform: 'youtube' }] },
      { provider: 'provider_a', provider_post_id: 'a-2', video_id: 2, results: [{ account_id: 'a-tt', platform: 'tiktok' }] },
      { provider: 'provider_b', provider_post_id: 'b-1', video_id: 3, results: [{ account_id: 'b-ig', platform: 'instagram' }] },
    ],
    videos: [
      { video_id: 1, product_name: 'Glow Serum', hook_text: 'Wait for it' },
      { video_id: 2, product_name: 'Glow Serum', hook_text: '  wait  FOR it ' },
      { video_id: 3, product_name: 'Night Cream', hook_text: 'POV: your skin at 7am' },
    ],
    channels: [
      { provider: 'provider_a', id: 'a-tt', platform: 'tiktok', name: 'Glow on TikTok' },
      { provider: 'provider_b', id: 'b-ig', platform: 'instagram', name: 'Glow on Instagram' },
    ],
    ...overrides,
  };
}

describe('buildBreakdowns', () => {
  test('per video: each video its posts added up over every network, most views first, named by product and hook', () => {
    expect(buildBreakdowns(world()).by_video).toEqual([
      { video_id: 2, product_name: 'Glow Serum', hook_text: '  wait  FOR it ', views: 400, likes: 0, comments: 0, shares: 0, posts: 1 },
      { video_id: 1, product_name: 'Glow Serum', hook_text: 'Wait for it', views: 150, likes: 10, comments: 2, shares: 0, posts: 1 },
      { video_id: 3, product_name: 'Night Cream', hook_text: 'POV: your skin at 7am', views: 30, likes: 0, comments: 0, shares: 1, posts: 1 },
    ]);
  });

  test('per hook: hooks that differ in case and spacing are one row (spelled as its most viewed video has it), counting its videos and posts; the best hook has the most views', () => {
    const { by_hook, best_hook } = buildBreakdowns(world());
    expect(by_hook).toEqual([
      { hook_text: 'wait  FOR it', videos: 2, posts: 2, views: 550, likes: 10, comments: 2, shares: 0 },
      { hook_text: 'POV: your skin at 7am', videos: 1, posts: 1, views: 30, likes: 0, comments: 0, shares: 1 },
    ]);
    expect(best_hook).toEqual(by_hook[0]);
  });

  test('per channel: the channel comes from our post or the connection; posts made outside the studio count too', () => {
    expect(buildBreakdowns(world()).by_channel).toEqual([
      { provider: 'provider_a', channel_id: 'a-tt', platform: 'tiktok', name: 'Glow on TikTok', views: 500, likes: 10, comments: 0, shares: 0, posts: 2 },
      { provider: 'provider_a', channel_id: 'a-yt', platform: 'youtube', name: null, views: 50, likes: 0, comments: 2, shares: 0, posts: 1 },
      // b-2 was not made in the studio: it counts for its channel alone.
      { provider: 'provider_b', channel_id: 'b-ig', platform: 'instagram', name: 'Glow on Instagram', views: 37, likes: 0, comments: 0, shares: 1, posts: 2 },
    ]);
  });

  test('figures outside the window count nowhere', () => {
    const out = buildBreakdowns(world({ since: '2026-03-01' }));
    expect(out.by_video.map((v) => v.video_id)).toEqual([2]);
    expect(out.by_channel.map((c) => [c.channel_id, c.views])).toEqual([['a-tt', 400]]);
  });

  test('a deleted video keeps its figures, unnamed and in no hook', () => {
    const out = buildBreakdowns(world({ videos: [] }));
    expect(out.by_video.map((v) => [v.video_id, v.product_name, v.hook_text])).toEqual([
      [2, null, null],
      [1, null, null],
      [3, null, null],
    ]);
    expect(out.by_hook).toEqual([]);
    expect(out.best_hook).toBeNull();
  });

  test('no best hook while no hooked post has a view; equal views go to the more engaging hook', () => {
    const unseen = world({ figures: [{ provider: 'provider_a', posts: [figure('a-1', '2026-02-28', 0, { platform: 'tiktok', likes: 3 })] }] });
    expect(buildBreakdowns(unseen).best_hook).toBeNull();
    const tied = world({
      figures: [
        { provider: 'provider_a', posts: [figure('a-1', '2026-02-28', 10, { platform: 'tiktok' })] },
        { provider: 'provider_b', posts: [figure('b-1', '2026-02-28', 10, { channel_id: 'b-ig', likes: 1 })] },
      ],
    });
    expect(buildBreakdowns(tied).best_hook?.hook_text).toBe('POV: your skin at 7am');
  });

  test('nothing synced: empty breakdowns', () => {
    expect(buildBreakdowns(world({ figures: [] }))).toEqual({ by_video: [], by_hook: [], by_channel: [], best_hook: null });
  });
});

describe('the helpers', () => {
  test('hookKey folds case and spacing', () => {
    expect(hookKey('  Wait\tfor  IT ')).toBe('wait for it');
  });

  test('postIdsNamed: the provider post ids inside the window, per provider', () => {
    expect([...postIdsNamed(world().figures, '2026-02-28', '2026-03-01')].sort()).toEqual(['provider_a:a-1', 'provider_a:a-2']);
  });

  test(`keepNewestPosts keeps the ${POST_FIGURES_MAX} newest entries`, () => {
    const many = Array.from({ length: POST_FIGURES_MAX + 5 }, (_, i) => figure(`p-${i}`, `2026-01-${String((i % 28) + 1).padStart(2, '0')}`, i));
    const kept = keepNewestPosts(many);
    expect(kept).toHaveLength(POST_FIGURES_MAX);
    expect(kept[0]!.date).toBe('2026-01-28');
    expect(kept.at(-1)!.date >= '2026-01-01').toBe(true);
    expect(keepNewestPosts([figure('x', '2026-01-01', 1), figure('y', '2026-01-02', 1)]).map((p) => p.post_id)).toEqual(['y', 'x']);
  });
});
