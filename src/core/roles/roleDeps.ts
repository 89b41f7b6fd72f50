/**
 * What every role implementation needs: a model client, the resolved model settings, and (for the
 * planner) the plan validator. Built once per mission by `createRoles`.
 */
import type { ModelClient } from '../model/modelClient';
import type { ModelSettings } from '../model/modelSettings';
import type { PlanValidation } from '../plan/validate';

export interface RoleDeps {
  client: ModelClient;
  settings: ModelSettings;
  validatePlan: (input: unknown) => PlanValidation;
}
