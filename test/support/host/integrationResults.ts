/**
 * The file the integration runner (test/integration/index.ts, inside the extension host) writes and the
 * launcher (integrationTier.ts, in Node) reads. Two processes, two builds: the launcher safeParses it.
 */
import { z } from 'zod';

/** Names the results file; set by the launcher in the environment code-server passes to the extension host. */
export const RESULTS_ENV = 'PLAN_EXECUTE_TEST_RESULTS';
/** Optional mocha --grep for the integration tier. */
export const GREP_ENV = 'PLAN_EXECUTE_TEST_GREP';

/** Written as soon as `run()` starts: the host loaded the tests (distinguishes "never started" from "hung"). */
export const StartedSchema = z.object({
  vscodeVersion: z.string(),
  appName: z.string(),
  files: z.array(z.string()),
});
export type Started = z.infer<typeof StartedSchema>;

const TestOutcomeSchema = z.object({
  title: z.string(),
  state: z.enum(['passed', 'failed', 'pending']),
  durationMs: z.number().optional(),
  error: z.string().optional(),
});
export type TestOutcome = z.infer<typeof TestOutcomeSchema>;

/** Written once mocha has finished. */
export const ResultsSchema = StartedSchema.extend({
  tests: z.array(TestOutcomeSchema),
  /** A failure outside any test (a file that does not load, a hook that throws). */
  errors: z.array(z.string()),
});
export type Results = z.infer<typeof ResultsSchema>;

export const startedFile = (resultsFile: string): string => `${resultsFile}.started`;
