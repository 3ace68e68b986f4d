import { AppError } from '#domain/errors';
import { ANSWER_LEASE_S } from '#domain/idempotency';
import type { RecordedAnswer } from '#ports/idempotent-answers';
import { answerOnce } from '#use-cases/answer-once';
import { MemoryIdempotentAnswers } from '#test-doubles/memory/idempotent-answers';

const created = (id: number): RecordedAnswer => ({ statusCode: 201, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ data: { id } }) });
const T0 = new Date('2026-11-30T12:00:00.000Z');

function setup() {
  let now = T0;
  const deps = { idempotentAnswers: new MemoryIdempotentAnswers(), now: () => now };
  let made = 0;
  const create = async () => created(++made);
  return { deps, create, made: () => made, advance: (s: number) => (now = new Date(now.getTime() + s * 1000)) };
}
const request = { accountId: 1, keyHash: 'k1', requestHash: 'r1' };

describe('answerOnce', () => {
  test('runs the first request and gives its answer again to a repeat, marked replayed, without running again', async () => {
    const { deps, create, made } = setup();
    expect(await answerOnce(deps, request, create)).toEqual({ answer: created(1), replayed: false });
    expect(await answerOnce(deps, request, create)).toEqual({ answer: created(1), replayed: true });
    expect(made()).toBe(1);
  });

  test('the same key with another request is 409 and runs nothing', async () => {
    const { deps, create, made } = setup();
    await answerOnce(deps, request, create);
    await expect(answerOnce(deps, { ...request, requestHash: 'r2' }, create)).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/different request/) });
    expect(made()).toBe(1);
  });

  test('of 8 concurrent sends of one request exactly one runs; the others are told to retry, and a retry gets its answer', async () => {
    const { deps } = setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let n = 0;
    const slow = async () => {
      n++;
      await gate;
      return created(n);
    };
    const sends = Array.from({ length: 8 }, () => answerOnce(deps, request, slow).then((r) => r, (e: AppError) => e));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    const outcomes = await Promise.all(sends);
    const ran = outcomes.filter((o) => !(o instanceof AppError));
    const refused = outcomes.filter((o): o is AppError => o instanceof AppError);
    expect(ran).toEqual([{ answer: created(1), replayed: false }]);
    expect(refused).toHaveLength(7);
    for (const error of refused) expect(error).toMatchObject({ code: 'conflict', headers: { 'retry-after': '1' }, message: expect.stringMatching(/still being processed/) });
    expect(await answerOnce(deps, request, slow)).toEqual({ answer: created(1), replayed: true });
    expect(n).toBe(1);
  });

  test('a request that fails records nothing and frees its key: a retry runs', async () => {
    const { deps, create, made } = setup();
    await expect(answerOnce(deps, request, () => Promise.reject(new AppError('upstream_unavailable', 'busy')))).rejects.toMatchObject({ code: 'upstream_unavailable' });
    expect(await answerOnce(deps, request, create)).toEqual({ answer: created(1), replayed: false });
    expect(made()).toBe(1);
  });

  test('only a success is kept: an answer that is not 2xx frees the key', async () => {
    const { deps, create } = setup();
    const refusal: RecordedAnswer = { statusCode: 422, headers: {}, body: '{"error":"no","code":"invalid_media"}' };
    expect(await answerOnce(deps, request, async () => refusal)).toEqual({ answer: refusal, replayed: false });
    expect(await answerOnce(deps, request, create)).toEqual({ answer: created(1), replayed: false });
  });

  test('a request that died holding its key blocks repeats only until its lease runs out', async () => {
    const { deps, create, advance } = setup();
    await deps.idempotentAnswers.claim(1, 'k1', 'r1', T0, new Date(T0.getTime() + ANSWER_LEASE_S * 1000));
    await expect(answerOnce(deps, request, create)).rejects.toMatchObject({ code: 'conflict' });
    advance(ANSWER_LEASE_S + 1);
    expect(await answerOnce(deps, request, create)).toEqual({ answer: created(1), replayed: false });
  });
});
