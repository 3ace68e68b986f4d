/** The live counters (studio/src/intake/text-count.ts): what they count and what they say past the limit. */
import { captionLimitOf, TEXT_LIMITS } from '../../studio/src/intake/limits';
import { counted, countOf, overLimit } from '../../studio/src/intake/text-count';

test('a limited field counts its text without the spaces around it, an emoji as one character', () => {
  expect(countOf(TEXT_LIMITS.hookText, '  Wait for it 😀  ')).toBe(13);
  expect(counted(TEXT_LIMITS.hookText, 'x'.repeat(100))).toEqual({ count: 100, max: 100, over: 0 });
});

test("a post's caption counts every code point as typed, spaces included", () => {
  expect(countOf(captionLimitOf(280), ' 😀 ')).toBe(3);
});

test('past the limit, the field says by how much and what the limit is', () => {
  expect(overLimit(TEXT_LIMITS.productName, 'n'.repeat(201), 'The name')).toBe('The name is 1 character too long: at most 200');
  expect(overLimit(TEXT_LIMITS.productName, 'n'.repeat(205), 'The name')).toBe('The name is 5 characters too long: at most 200');
  expect(overLimit(TEXT_LIMITS.productName, 'n'.repeat(200), 'The name')).toBeNull();
});
