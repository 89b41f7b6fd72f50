/** Every scenario of the ordinary-projects corpus, in the order the test and the runner use, and how one is judged. */
import { compareRuns, explain } from './compare';
import { BUILD_SCENARIOS } from './projectsBuilds';
import { GIT_SCENARIOS } from './projectsGit';
import { LAYOUT_SCENARIOS } from './projectsLayouts';
import { TREE_SCENARIOS } from './projectsTree';
import { SECRETS_SCENARIOS } from './projectsSecrets';
import type { Scenario } from './scenario';
import type { ScenarioResult } from './table';
import type { CorpusWorld } from './threeWays';

export const CORPUS: Scenario[] = [...SECRETS_SCENARIOS, ...BUILD_SCENARIOS, ...GIT_SCENARIOS, ...LAYOUT_SCENARIOS, ...TREE_SCENARIOS];

/**
 * Runs a scenario three ways and compares. The plain run must do the project's work — every command
 * exits 0 — or the scenario proves nothing (three runs failing alike compare equal).
 */
export async function judgeScenario(world: CorpusWorld, s: Scenario): Promise<ScenarioResult & { story: string }> {
  const runs = await world.run(s);
  const failedPlain = runs.plain.commands.filter((c) => c.exit !== 0);
  const diffs = compareRuns(s, runs);
  const story = explain(s, runs, diffs);
  if (failedPlain.length > 0) {
    const failures = failedPlain.map((c) => `\`${c.command}\` exit ${c.exit}: ${c.output.slice(0, 300)}`);
    const error = `the plain run failed, so the scenario proves nothing: ${failures.join('; ')}`;
    return { scenario: s, diffs, error, story: `${error}\n${story}` };
  }
  return { scenario: s, diffs, story };
}
