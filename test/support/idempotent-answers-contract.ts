/**
 * What every IdempotentAnswerStore must do, run against the DynamoDB store and the in-memory double
 * the unit tests use, so the double keeps the same conditions.
 */
import { randomUUID } from 'node:crypto';
import type { IdempotentAnswerStore, RecordedAnswer } from '#ports/idempotent-answers';

const NOW = new Date('2026-11-30T12:00:00.000Z');
const at = (s: number) => new Date(NOW.getTime() + s * 1000);
const answer = (id: number): RecordedAnswer => ({ statusCode: 201, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ data: { id } }) });

export function idempotentAnswersContract(store: () => IdempotentAnswerStore): void {
  describe('the Idempotency-Key answer store', () => {
    test('a free key is claimed; while its request runs it is in progress, for that request’s hash', async () => {
      const key = randomUUID();
      expect(await store().claim(1, key, 'req-a', NOW, at(60))).toEqual({ kind: 'claimed' });
      expect(await store().claim(1, key, 'req-a', at(1), at(61))).toEqual({ kind: 'in_progress', requestHash: 'req-a' });
      expect(await store().claim(1, key, 'req-b', at(1), at(61))).toEqual({ kind: 'in_progress', requestHash: 'req-a' });
    });

    test('a recorded answer is given back to the same key, whole, until it is no longer kept', async () => {
      const key = randomUUID();
      await store().claim(2, key, 'req-a', NOW, at(60));
      await store().record(2, key, 'req-a', answer(7), at(86_400));
      expect(await store().claim(2, key, 'req-a', at(3_600), at(3_660))).toEqual({ kind: 'answered', requestHash: 'req-a', answer: answer(7) });
      expect(await store().claim(2, key, 'req-a', at(86_401), at(86_461))).toEqual({ kind: 'claimed' });
    });

    test('keys are the account’s own: another account’s same key is free', async () => {
      const key = randomUUID();
      await store().claim(3, key, 'req-a', NOW, at(60));
      expect(await store().claim(4, key, 'req-a', NOW, at(60))).toEqual({ kind: 'claimed' });
    });

    test('of concurrent claims of one key exactly one gets it', async () => {
      const key = randomUUID();
      const claims = await Promise.all(Array.from({ length: 8 }, () => store().claim(5, key, 'req-a', NOW, at(60))));
      expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1);
      expect(claims.filter((c) => c.kind === 'in_progress')).toHaveLength(7);
    });

    test('a released key is free again; a release for another request, or after the answer, changes nothing', async () => {
      const key = randomUUID();
      await store().claim(6, key, 'req-a', NOW, at(60));
      await store().release(6, key, 'req-b');
      expect(await store().claim(6, key, 'req-b', NOW, at(60))).toEqual({ kind: 'in_progress', requestHash: 'req-a' });
      await store().release(6, key, 'req-a');
      expect(await store().claim(6, key, 'req-b', NOW, at(60))).toEqual({ kind: 'claimed' });
      await store().record(6, key, 'req-b', answer(8), at(86_400));
      await store().release(6, key, 'req-b');
      expect(await store().claim(6, key, 'req-b', at(1), at(61))).toMatchObject({ kind: 'answered', answer: answer(8) });
    });

    test('a request that died holding its key frees it when its lease runs out; its late answer does not overwrite the new one', async () => {
      const key = randomUUID();
      await store().claim(7, key, 'req-a', NOW, at(60));
      expect(await store().claim(7, key, 'req-b', at(61), at(121))).toEqual({ kind: 'claimed' });
      await store().record(7, key, 'req-a', answer(1), at(86_400));
      await store().record(7, key, 'req-b', answer(2), at(86_400));
      expect(await store().claim(7, key, 'req-b', at(62), at(122))).toEqual({ kind: 'answered', requestHash: 'req-b', answer: answer(2) });
    });
  });
}
