/** What the studio says when the API refuses (studio/src/api/errors.ts), without a browser. */
import { ApiError } from '#client/errors';
import { ERROR_CODES } from '#domain/errors';
import { problemOf } from '../../studio/src/api/errors';

const refusal = (code: string, message: string, status = 422) => new ApiError({ status, code, message, requestId: 'req-1', retryAfterS: null, body: { error: message, code } });

describe('problemOf', () => {
  test("a photo without a face: a heading that says what to choose, and the API's own message", () => {
    const message = 'image: we could not find a face in this image. Upload a photo of one person facing the camera, the face well lit and not too small';
    expect(problemOf(refusal('no_face', message))).toEqual({ heading: expect.stringMatching(/^No face found/), detail: message, requestId: 'req-1' });
  });

  test('a 402 (the allowance or a cap reached) points to the Plans page; other refusals do not', () => {
    const exhausted = refusal('allowance_exhausted', 'Monthly allowance of 3 videos used; change plan: PUT /account/plan (studio: Plans page; the plans: GET /plans)', 402);
    expect(problemOf(exhausted)).toMatchObject({ heading: "This month's video allowance is used up", changePlan: true });
    expect(problemOf(refusal('avatars_full', 'The plan keeps 3 avatars', 402)).changePlan).toBe(true);
    expect(problemOf(refusal('conflict', 'busy', 409))).not.toHaveProperty('changePlan');
  });

  test('a code the studio does not know still shows the message', () => {
    expect(problemOf(refusal('something_new', 'details', 418))).toMatchObject({ heading: 'The request failed (418)', detail: 'details' });
  });

  test('every code the API answers has its own heading', () => {
    for (const code of Object.keys(ERROR_CODES)) expect(problemOf(refusal(code, 'details')).heading).not.toMatch(/^The request failed/);
  });

  test('a wrong password at sign-in names what happened, not "sign in again"', () => {
    const wrong = refusal('unauthorized', 'Wrong email or password', 401);
    expect(problemOf(wrong, 'sign-in').heading).toBe('Wrong email or password');
    // Anywhere else, a 401 is a session that ended.
    expect(problemOf(wrong).heading).toBe('Please sign in again');
  });

  test('a taken email at sign-up says so', () => {
    expect(problemOf(refusal('conflict', 'This email already has an account: sign in instead', 409), 'sign-up')).toMatchObject({
      heading: 'That email already has an account',
      detail: 'This email already has an account: sign in instead',
    });
  });

  test('a wrong current password when changing it says so', () => {
    expect(problemOf(refusal('forbidden', 'current_password is wrong', 403), 'change-password').heading).toBe('The current password is wrong');
  });

  test('a code the action says nothing more about keeps its own heading', () => {
    expect(problemOf(refusal('rate_limited', 'slow down', 429), 'sign-up').heading).toBe('Too many requests — wait a moment and try again');
  });
});
