/**
 * The studio cannot import the service (a browser app sees only the API), so the post form keeps its
 * own copy of the networks' caption limits to count characters as the person types; it must agree
 * with the limits the API enforces.
 */
import { CAPTION_LIMITS } from '#domain/social-post';
import { CAPTION_LIMIT } from '../../studio/src/pages/social/social-words';

test("the post form's caption limits are the API's", () => {
  expect(CAPTION_LIMIT).toEqual(CAPTION_LIMITS);
});
