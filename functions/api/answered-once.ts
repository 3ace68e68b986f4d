/**
 * An operation that creates something, run once per Idempotency-Key (use-cases/answer-once.ts): its
 * first successful answer is recorded and given again, marked `Idempotent-Replayed: true`, to a repeat
 * of the same request. The route table says which routes take a key this way (`idempotencyKey:
 * 'answer'`), and a spec holds each of those routes' operations to being wrapped here.
 */
import type { ApiResult, Operation } from '#http/api-types';
import { IDEMPOTENT_REPLAYED_HEADER, idempotencyKeyOf, keyHashOf, requestHashOf } from '#http/idempotency-key';
import type { RecordedAnswer } from '#ports/idempotent-answers';
import { answerOnce } from '#use-cases/answer-once';

const ANSWERED_ONCE = Symbol('answeredOnce');

export function answeredOnce<P>(operation: Operation<P>): Operation<P> {
  const once: Operation<P> = async (request) => {
    const key = idempotencyKeyOf(request.event);
    if (key === undefined) return operation(request);
    const keyed = { accountId: request.principal.accountId, keyHash: keyHashOf(key), requestHash: requestHashOf(request.event) };
    const { answer, replayed } = await answerOnce(request.deps, keyed, async () => recordable(await operation(request)));
    return replayed ? { ...answer, headers: { ...answer.headers, [IDEMPOTENT_REPLAYED_HEADER]: 'true' } } : answer;
  };
  return Object.assign(once, { [ANSWERED_ONCE]: true });
}

export const isAnsweredOnce = (operation: unknown): boolean => typeof operation === 'function' && ANSWERED_ONCE in operation;

/** An operation's answer as the store keeps it: headers as strings (these operations set no cookies). */
function recordable(result: ApiResult): RecordedAnswer {
  const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([name, value]) => [name, String(value)]));
  return { statusCode: result.statusCode ?? 200, headers, body: result.body ?? '', ...(result.isBase64Encoded ? { isBase64Encoded: true } : {}) };
}
