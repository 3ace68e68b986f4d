/**
 * What every RateLimiter must do, run against the DynamoDB limiter (shared by every instance) and the
 * in-memory double the unit tests use, so the double keeps the same conditions.
 */
import type { RateLimiter } from '#ports/rate-limiter';
const { floor } = Math;

export function rateLimiterContract(limiter: () => RateLimiter): void {
  const consume: RateLimiter['consume'] = (rule, now) => limiter().consume(rule, now);
  const consumeAll: RateLimiter['consumeAll'] = (rules, now) => limiter().consumeAll(rules, now);
  const peek: RateLimiter['peek'] = (rule, now) => limiter().peek(rule, now);

  const MINUTE = 60_000;
  /** A fixed instant at the start of a window, so tests control the elapsed fraction. */
  const T0 = floor(Date.UTC(2026, 10, 22, 12, 0, 0) / MINUTE) * MINUTE;

  describe('the shared rate limiter', () => {
    test('concurrent requests are admitted up to the limit and no further', async () => {
      const rule = { bucket: 'concurrent', limit: 120, windowMs: MINUTE };
      const decisions = await Promise.all(Array.from({ length: 150 }, () => consume(rule, T0 + 1000)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(120);
      const refused = decisions.filter((d) => !d.allowed);
      expect(refused).toHaveLength(30);
      expect(refused.every((d) => d.remaining === 0 && (d.retryAfterS ?? 0) >= 1)).toBe(true);
    });

    test('the window rolls: half a minute into the next window, half of the last one still counts', async () => {
      const rule = { bucket: 'rolling', limit: 10, windowMs: MINUTE };
      for (let i = 0; i < 10; i++) expect((await consume(rule, T0 + i)).allowed).toBe(true);
      // 30 s into the next window the previous 10 weigh 5: five more fit.
      const later = T0 + MINUTE + 30_000;
      const decisions = [];
      for (let i = 0; i < 7; i++) decisions.push(await consume(rule, later));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
    });

    test('refused requests do not count', async () => {
      const rule = { bucket: 'refusals', limit: 3, windowMs: MINUTE };
      for (let i = 0; i < 3; i++) await consume(rule, T0 + 10);
      for (let i = 0; i < 20; i++) expect((await consume(rule, T0 + 20)).allowed).toBe(false);
      // Half a minute into the next window the previous one weighs 1.5 if it holds 3; had the refusals
      // counted it would weigh 11.5 and nothing would be admitted.
      expect((await consume(rule, T0 + MINUTE + 30_000)).allowed).toBe(true);
    });

    test('Retry-After points at the moment a request would be admitted again', async () => {
      const rule = { bucket: 'retry', limit: 4, windowMs: MINUTE };
      for (let i = 0; i < 4; i++) await consume(rule, T0 + 15_000);
      const refused = await consume(rule, T0 + 15_000);
      expect(refused.allowed).toBe(false);
      // All four sit in this window: the next window starts in 45 s and they must decay by a quarter.
      expect(refused.retryAfterS).toBe(60);
      expect((await consume(rule, T0 + 15_000 + 60_000)).allowed).toBe(true);
    });
  });

  describe('peek (a dry run reads its limit)', () => {
    test('answers what the window holds and counts nothing', async () => {
      const rule = { bucket: 'peek', limit: 3, windowMs: MINUTE };
      expect(await peek(rule, T0 + 10)).toMatchObject({ allowed: true, limit: 3, remaining: 3 });
      await consume(rule, T0 + 20);
      for (let i = 0; i < 10; i++) expect(await peek(rule, T0 + 30)).toMatchObject({ allowed: true, remaining: 2 });
      expect((await consume(rule, T0 + 40)).remaining).toBe(1);
      expect((await consume(rule, T0 + 50)).remaining).toBe(0);
    });

    test('over the limit it is refused like consume, with Retry-After', async () => {
      const rule = { bucket: 'peek-full', limit: 2, windowMs: MINUTE };
      await consume(rule, T0 + 15_000);
      await consume(rule, T0 + 15_000);
      const peeked = await peek(rule, T0 + 15_000);
      expect(peeked).toMatchObject({ allowed: false, remaining: 0 });
      expect(peeked.retryAfterS).toBe((await consume(rule, T0 + 15_000)).retryAfterS);
    });
  });

  describe('several windows at once (the AI-helper backstops)', () => {
    const minute = (bucket: string, limit: number) => ({ bucket: `${bucket}-min`, limit, windowMs: MINUTE });
    const day = (bucket: string, limit: number) => ({ bucket: `${bucket}-day`, limit, windowMs: 24 * 60 * MINUTE });

    test('a request counts against every window or none: refused by the day, it leaves the minute untouched', async () => {
      const rules = [minute('both', 5), day('both', 3)];
      const decisions = [];
      for (let i = 0; i < 5; i++) decisions.push(await consumeAll(rules, T0 + i));
      expect(decisions.map((d) => d.every((r) => r.allowed))).toEqual([true, true, true, false, false]);
      const refused = decisions[3]!;
      expect(refused[1]!.retryAfterS).toBeGreaterThan(60 * 60);
      // The minute window only saw the three admitted requests: two more would fit there.
      expect((await consume({ ...rules[0]! }, T0 + 10)).remaining).toBe(1);
    });

    test('concurrent requests never pass the tighter window', async () => {
      const rules = [minute('race', 4), day('race', 100)];
      const results = await Promise.all(Array.from({ length: 12 }, () => consumeAll(rules, T0 + 2000)));
      expect(results.filter((r) => r.every((d) => d.allowed))).toHaveLength(4);
    });
  });
}
