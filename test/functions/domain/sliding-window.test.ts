import { maxCurrentCountForAdmission, msUntilAdmission, remainingAfter, windowPosition } from '#domain/sliding-window';

describe('the sliding-window arithmetic', () => {
  test('the position of an instant inside its fixed window', () => {
    expect(windowPosition(90_000, 60_000)).toEqual({ windowStart: 60_000, windowMs: 60_000, elapsed: 0.5 });
  });

  test('with an empty previous window the whole limit is available', () => {
    expect(maxCurrentCountForAdmission(120, 0, 0.3)).toBe(119);
    expect(remainingAfter(120, 0, 1, 0.3)).toBe(119);
  });

  test('the previous window counts in proportion to its remaining overlap', () => {
    // 100 last minute, 25% into this one: 75 still count, so 44 more fit after 0 now.
    expect(maxCurrentCountForAdmission(120, 100, 0.25)).toBe(44);
    expect(remainingAfter(120, 100, 10, 0.25)).toBe(35);
  });

  test('the wait for admission when this window alone is full is until the next one lets one in', () => {
    const position = windowPosition(15_000, 60_000);
    expect(msUntilAdmission(4, 0, 4, position)).toBe(45_000 + 15_000);
  });

  test('the wait when the previous window is what blocks is until its weight decays enough', () => {
    const position = windowPosition(60_000, 60_000); // start of a window, previous held 10
    // limit 10, nothing yet now: need 10*(1-f) + 0 + 1 <= 10 → f >= 0.1 → 6 s.
    expect(msUntilAdmission(10, 10, 0, position)).toBeCloseTo(6_000, 5);
  });
});
