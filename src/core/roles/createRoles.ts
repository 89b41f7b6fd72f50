/**
 * Builds the three roles for a mission from one model client and the settings. Roles stay separate
 * objects with separate tool sets; they share only the client and the settings.
 *
 *   const roles = createRoles({ client: createAnthropicModelClient({ apiKey, baseURL }), settings: { executor: { tier: 'light' } } });
 *   runMission({ ..., planner: roles.planner, executor: roles.executor, verifier: roles.verifier });
 */
import type { ModelClient } from '../model/modelClient';
import { resolveModelSettings, type DeepPartialSettings, type ModelSettings } from '../model/modelSettings';
import { validatePlan as defaultValidatePlan, type PlanValidation } from '../plan/validate';
import type { ExecutorRole, PlannerRole, VerifierRole } from '../ports';
import { createExecutor } from './executor';
import { createPlanner } from './planner';
import { createVerifier } from './verifier';

export interface CreateRolesOptions {
  client: ModelClient;
  settings?: DeepPartialSettings;
  /** Defaults to validatePlan with its default options. */
  validatePlan?: (input: unknown) => PlanValidation;
}

export interface Roles {
  planner: PlannerRole;
  executor: ExecutorRole;
  verifier: VerifierRole;
  settings: ModelSettings;
}

export function createRoles(options: CreateRolesOptions): Roles {
  const settings = resolveModelSettings(options.settings);
  const deps = { client: options.client, settings, validatePlan: options.validatePlan ?? ((input: unknown) => defaultValidatePlan(input)) };
  return { planner: createPlanner(deps), executor: createExecutor(deps), verifier: createVerifier(deps), settings };
}
