import { concurrentRequestAnswer, repeatOf, type KeyedCreations } from '#use-cases/keyed-repeat';

const NOW = new Date('2026-11-30T12:00:00.000Z');

/** Keys over a map: key hash → its record; what each made by id. */
function creations(keys: Record<string, { thing_id: number; request_hash: string }>, things: Record<number, string>): KeyedCreations<{ thing_id: number; request_hash: string }, string> {
  return {
    what: 'thing',
    notFoundName: 'Thing',
    earlier: async (keyHash) => keys[keyHash],
    made: async (earlier) => things[earlier.thing_id],
  };
}

describe('repeatOf', () => {
  test('a new key: nothing to repeat', async () => {
    expect(await repeatOf(creations({}, {}), { keyHash: 'k1', requestHash: 'r1' }, NOW)).toBeUndefined();
  });

  test('the same request again: what the earlier one made', async () => {
    expect(await repeatOf(creations({ k1: { thing_id: 5, request_hash: 'r1' } }, { 5: 'five' }), { keyHash: 'k1', requestHash: 'r1' }, NOW)).toBe('five');
  });

  test('the key with another request is 409, naming what a new request makes', async () => {
    await expect(repeatOf(creations({ k1: { thing_id: 5, request_hash: 'r1' } }, { 5: 'five' }), { keyHash: 'k1', requestHash: 'r2' }, NOW)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/different request; use a new key for a new thing$/),
    });
  });

  test('what it made, gone since, is 404', async () => {
    await expect(repeatOf(creations({ k1: { thing_id: 5, request_hash: 'r1' } }, {}), { keyHash: 'k1', requestHash: 'r1' }, NOW)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('concurrentRequestAnswer', () => {
  test("a twin's key not written yet is 409 with Retry-After", async () => {
    await expect(concurrentRequestAnswer(creations({}, {}), { keyHash: 'k1', requestHash: 'r1' }, NOW)).rejects.toMatchObject({ code: 'conflict', headers: { 'retry-after': '1' } });
  });

  test("once written, the twin's answer, checked like any repeat", async () => {
    const written = creations({ k1: { thing_id: 5, request_hash: 'r1' } }, { 5: 'five' });
    expect(await concurrentRequestAnswer(written, { keyHash: 'k1', requestHash: 'r1' }, NOW)).toBe('five');
    await expect(concurrentRequestAnswer(written, { keyHash: 'k1', requestHash: 'r2' }, NOW)).rejects.toMatchObject({ code: 'conflict' });
  });
});
