/** Test mode's rules: the key text says its mode, and a test key's data lives in a scope of its own. */
import { generateKeyMaterial, isWellFormedKey } from '#domain/api-keys';
import { createKeyInput } from '#domain/schemas/accounts';
import { accountOfScope, engineRequestOf, isTestScope, modeOfScope, scopeOf } from '#domain/test-mode';
import { jobView } from '#domain/jobs';
import { videoView } from '#domain/video';

describe('key material', () => {
  test('a test key reads rsk_test_ and 43 characters of secret, a live key rsk_ and 43; lists show the mode prefix and 8 characters', () => {
    const test = generateKeyMaterial('test');
    const live = generateKeyMaterial();
    expect(test.raw).toMatch(/^rsk_test_[A-Za-z0-9_-]{43}$/);
    expect(live.raw).toMatch(/^rsk_[A-Za-z0-9_-]{43}$/);
    expect(test.prefix).toBe(test.raw.slice(0, 'rsk_test_'.length + 8));
    expect(live.prefix).toBe(live.raw.slice(0, 'rsk_'.length + 8));
  });

  test('both are well formed; a truncated or re-prefixed key is not', () => {
    const test = generateKeyMaterial('test').raw;
    expect(isWellFormedKey(test)).toBe(true);
    expect(isWellFormedKey(generateKeyMaterial('live').raw)).toBe(true);
    expect(isWellFormedKey(test.slice(0, -1))).toBe(false);
    expect(isWellFormedKey(test.replace('rsk_test_', 'rsk_live_'))).toBe(false);
    expect(isWellFormedKey(`rsk_test_${'a'.repeat(44)}`)).toBe(false);
  });
});

describe('POST /keys body', () => {
  test('mode is live or test, and optional', () => {
    expect(createKeyInput.safeParse({ name: 'CI', mode: 'test' }).success).toBe(true);
    expect(createKeyInput.safeParse({ name: 'CI', mode: 'live' }).success).toBe(true);
    expect(createKeyInput.safeParse({ name: 'CI' }).success).toBe(true);
  });

  test.each([['sideways'], ['TEST'], [''], [true], [null]])('mode %p is refused at the mode field', (mode) => {
    const parsed = createKeyInput.safeParse({ name: 'CI', mode });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([['mode']]);
  });
});

describe('scopes', () => {
  test("a test key's scope is another id, derived from the account's, and leads back to it", () => {
    for (const accountId of [1, 42, 987_654_321]) {
      const scope = scopeOf(accountId, 'test');
      expect(scope).not.toBe(accountId);
      expect(Number.isSafeInteger(scope)).toBe(true);
      expect(String(scope)).toMatch(/^[1-9][0-9]{0,15}$/);
      expect({ test: isTestScope(scope), account: accountOfScope(scope), mode: modeOfScope(scope) }).toEqual({ test: true, account: accountId, mode: 'test' });
    }
  });

  test('a live key works on the account itself', () => {
    expect(scopeOf(42, 'live')).toBe(42);
    expect({ test: isTestScope(42), account: accountOfScope(42), mode: modeOfScope(42) }).toEqual({ test: false, account: 42, mode: 'live' });
  });

  test('no two accounts share a scope, live or test', () => {
    const ids = [1, 2, 3, 1000].flatMap((id) => [scopeOf(id, 'live'), scopeOf(id, 'test')]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('a test scope is not an account to derive a scope from again', () => {
    expect(() => scopeOf(scopeOf(7, 'test'), 'test')).toThrow(RangeError);
  });

  test('test data is made offline; live data on the configured engines', () => {
    expect(engineRequestOf(scopeOf(7, 'test'))).toEqual({ offline: true });
    expect(engineRequestOf(7)).toEqual({ offline: false });
  });
});

describe('records made with a test key', () => {
  const at = '2026-11-30T12:00:00.000Z';
  const link = { url: 'https://example.com/v.mp4', expiresAt: at };

  test('a video says test: true, a live one test: false', () => {
    const video = { id: 1, account_id: scopeOf(7, 'test'), job_id: 2, product_id: 3, key: 'k', poster_key: 'p', duration_s: 9, width: 1080, height: 1920, size_bytes: 10, created_at: at };
    expect(videoView(video as never, link, link, link, new Date(at)).test).toBe(true);
    expect(videoView({ ...video, account_id: 7 } as never, link, link, link, new Date(at)).test).toBe(false);
  });

  test('a test job says test: true and shows no unit charged, whatever its scope ledger holds', () => {
    const job = { id: 2, account_id: scopeOf(7, 'test'), status: 'done', charged_units: 1, regenerations: 0, hook: null, sound: null, created_at: at, updated_at: at };
    expect(jobView(job as never)).toMatchObject({ test: true, charged_units: 0 });
    expect(jobView({ ...job, account_id: 7 } as never)).toMatchObject({ test: false, charged_units: 1 });
  });
});
