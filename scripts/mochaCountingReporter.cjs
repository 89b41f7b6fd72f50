// A mocha reporter for the test orchestrator (scripts/test.ts): prints like `spec`, and when the run ends
// writes the counts to the file given by `--reporter-option output=FILE`, so the orchestrator sums tiers
// from numbers rather than by parsing text. CommonJS because mocha loads reporters with require().
'use strict';
const { writeFileSync } = require('node:fs');
const Mocha = require('mocha');

const { EVENT_RUN_END, EVENT_TEST_FAIL, EVENT_TEST_PASS, EVENT_TEST_PENDING } = Mocha.Runner.constants;

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const output = options && options.reporterOption && options.reporterOption.output;
    const counts = { passed: 0, failed: 0, pending: 0, hookFailures: 0 };
    runner.on(EVENT_TEST_PASS, () => counts.passed++);
    runner.on(EVENT_TEST_PENDING, () => counts.pending++);
    runner.on(EVENT_TEST_FAIL, (test) => {
      // A failing hook is not a test, but it is a failure the run must not hide.
      if (test.type === 'hook') counts.hookFailures++;
      else counts.failed++;
    });
    runner.once(EVENT_RUN_END, () => {
      if (output) writeFileSync(output, JSON.stringify(counts));
    });
  }
}

module.exports = CountingReporter;
