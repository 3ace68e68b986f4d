/**
 * Longest suites first, so that the three workers finish together instead of one of them running a
 * several-minute suite alone at the end. Lengths are jest's own timings when this machine has them,
 * else those of a clean CI run (suite-seconds.json, refreshed from a CI log when suites change much);
 * a suite in neither counts as 5 s.
 */
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const SECONDS = require('./suite-seconds.json');

const UNKNOWN_S = 5;

const secondsOf = (test) => {
  if (test.duration != null) return test.duration / 1000;
  return SECONDS[path.relative(test.context.config.rootDir, test.path)] ?? UNKNOWN_S;
};

class HeavyFirstSequencer extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => secondsOf(b) - secondsOf(a));
  }
}

module.exports = HeavyFirstSequencer;
