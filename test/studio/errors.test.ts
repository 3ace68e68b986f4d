/** What the studio says when the API refuses (studio/src/api/errors.ts), without a browser. */
import { ApiError } from '#client/errors';
import { problemOf } from '../../studio/src/api/errors';

const refusal = (code: string, message: string, status = 422) => new ApiError({ status, code, message, requestId: 'req-1', retryAfterS: null, body: { error: message, code } });

describe('problemOf', () => {
  test("a photo without a face: a heading that says what to choose, and the API's own message", () => {
    const message = 'image: we could not find a face in this image. Upload a photo of one person facing the camera, the face well lit and not too small';
    expect(problemOf(refusal('no_face', message))).toEqual({ heading: expect.stringMatching(/^No face found/), detail: message, requestId: 'req-1' });
  });

  test('a code the studio does not know still shows the message', () => {
    expect(problemOf(refusal('something_new', 'details', 418))).toMatchObject({ heading: 'The request failed (418)', detail: 'details' });
  });
});
