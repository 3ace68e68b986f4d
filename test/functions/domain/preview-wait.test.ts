import { PREVIEW_WAIT_MAX_S, previewWaitSecondsOf } from '#domain/preview-wait';

describe('previewWaitSecondsOf', () => {
  test('unset, zero, negative or not a number is the full 30 days', () => {
    for (const raw of [undefined, '', '0', '-5', 'soon']) expect(previewWaitSecondsOf(raw)).toBe(PREVIEW_WAIT_MAX_S);
    expect(PREVIEW_WAIT_MAX_S).toBe(30 * 24 * 3600);
  });

  test('a shorter wait is taken; a longer one is capped at what the state machine waits', () => {
    expect(previewWaitSecondsOf('3')).toBe(3);
    expect(previewWaitSecondsOf(String(PREVIEW_WAIT_MAX_S * 2))).toBe(PREVIEW_WAIT_MAX_S);
  });
});
