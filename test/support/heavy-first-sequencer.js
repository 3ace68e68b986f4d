/**
 * Jest's order, but on a run with no timings yet (a fresh clone: CI) the end-to-end and process-life
 * suites go first. They are the longest, and jest's fallback (the largest file first) left the
 * restart soak, a small file of several minutes, to the end of the run, alone on one core.
 */
const Sequencer = require('@jest/test-sequencer').default;

const HEAVY = [/\/test\/e2e\//, /-e2e\.test\.ts$/, /\/test\/lib\/cloud\/lambda-layout\.test\.ts$/, /\/test\/functions\/render\/sound\/synth\.test\.ts$/];
const SLOWEST = [/restart-soak\.test\.ts$/, /\/video-jobs\.test\.ts$/, /\/finished-video-sound\.test\.ts$/];

const rank = (test) => {
  if (test.duration != null) return 2;
  if (SLOWEST.some((p) => p.test(test.path))) return 0;
  return HEAVY.some((p) => p.test(test.path)) ? 1 : 2;
};

class HeavyFirstSequencer extends Sequencer {
  sort(tests) {
    // Array#sort is stable: within a rank jest's own order stands.
    return super.sort(tests).sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = HeavyFirstSequencer;
