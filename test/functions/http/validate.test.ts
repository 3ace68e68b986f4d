import * as z from 'zod/mini';
import { AppError } from '#domain/errors';
import { parseInput } from '#http/validate';

const schema = z.strictObject({
  name: z.string().check(z.minLength(1)),
  metadata: z.optional(z.strictObject({ campaign: z.string() })),
  variants: z.optional(z.array(z.strictObject({ hook_text: z.string().check(z.maxLength(5)) }))),
});

function refusal(input: unknown): AppError {
  try {
    parseInput(schema, input);
  } catch (error) {
    return error as AppError;
  }
  throw new Error('parsed');
}

describe('parseInput', () => {
  test('answers the parsed value when it fits', () => {
    expect(parseInput(schema, { name: 'ok' })).toEqual({ name: 'ok' });
  });

  test.each([
    ['a missing field', {}, 'name'],
    ['a field of the wrong type', { name: 3 }, 'name'],
    ['a nested field', { name: 'ok', metadata: { campaign: 7 } }, 'metadata.campaign'],
    ['an item of a list', { name: 'ok', variants: [{ hook_text: 'fine' }, { hook_text: 'far too long' }] }, 'variants.1.hook_text'],
    ['an unknown field', { name: 'ok', colour: 'red' }, 'colour'],
    ['an unknown nested field', { name: 'ok', metadata: { campaign: 'x', source: 'y' } }, 'metadata.source'],
  ])('refuses %s as a 400 whose `param` names it', (_label, input, param) => {
    const error = refusal(input);
    expect(error).toMatchObject({ code: 'bad_request', status: 400, param });
    expect(error.message).toContain(param.split('.').pop());
  });

  test('a body that is not an object at all names no field', () => {
    expect(refusal(['x']).param).toBeUndefined();
  });
});
