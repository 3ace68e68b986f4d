/** The in-memory Idempotency-Key answer store the unit tests use keeps the DynamoDB store's conditions. */
import { MemoryIdempotentAnswers } from '#test-doubles/memory/idempotent-answers';
import { idempotentAnswersContract } from '#test-support/idempotent-answers-contract';

const store = new MemoryIdempotentAnswers();
idempotentAnswersContract(() => store);
