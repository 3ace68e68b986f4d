/** The client's programs read a poll interval as whole milliseconds, and name a bad one. */
import { pollIntervalMsOf } from '#cli/environment';

test('unset or empty is the default; a positive whole number is taken', () => {
  expect(pollIntervalMsOf({}, 'RS_POLL_INTERVAL_MS')).toBeUndefined();
  expect(pollIntervalMsOf({ RS_POLL_INTERVAL_MS: '' }, 'RS_POLL_INTERVAL_MS')).toBeUndefined();
  expect(pollIntervalMsOf({ RS_POLL_INTERVAL_MS: '250' }, 'RS_POLL_INTERVAL_MS')).toBe(250);
});

test.each(['0', '-5', '1.5', 'fast'])('%s is refused with the variable named', (raw) => {
  expect(() => pollIntervalMsOf({ RS_POLL_INTERVAL_MS: raw }, 'RS_POLL_INTERVAL_MS')).toThrow(`RS_POLL_INTERVAL_MS must be a whole number of milliseconds, not ${raw}`);
});
