/**
 * Every bundled prompt version, by role. A setting may pin an older version; the default is the latest.
 */
import { err, ok, type Result } from '../../contracts/result';
import type { RoleName } from '../../model/modelClient';
import { EXECUTOR_PROMPT_V1 } from './executor.v1';
import { EXECUTOR_PROMPT_V2 } from './executor.v2';
import { EXECUTOR_PROMPT_V3 } from './executor.v3';
import { PLANNER_PROMPT_V1 } from './planner.v1';
import { PLANNER_PROMPT_V2 } from './planner.v2';
import { PLANNER_PROMPT_V3 } from './planner.v3';
import { REPLANNER_PROMPT_V1 } from './replanner.v1';
import { REPLANNER_PROMPT_V2 } from './replanner.v2';
import { VERIFIER_PROMPT_V1 } from './verifier.v1';
import type { PromptText } from './promptText';

const PROMPTS: Record<RoleName, PromptText[]> = {
  planner: [PLANNER_PROMPT_V1, PLANNER_PROMPT_V2, PLANNER_PROMPT_V3],
  replanner: [REPLANNER_PROMPT_V1, REPLANNER_PROMPT_V2],
  executor: [EXECUTOR_PROMPT_V1, EXECUTOR_PROMPT_V2, EXECUTOR_PROMPT_V3],
  verifier: [VERIFIER_PROMPT_V1],
};

/** The prompt, or why there is none (an unknown pinned version). */
export type PromptLookup = Result<PromptText, string>;

export function promptFor(role: RoleName, version?: string): PromptLookup {
  const list = PROMPTS[role];
  const prompt = version === undefined ? list.at(-1) : list.find((p) => p.version === version);
  if (!prompt) return err(`no ${role} prompt version "${version}" (have ${list.map((p) => p.version).join(', ')})`);
  return ok(prompt);
}
