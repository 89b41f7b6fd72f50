/**
 * The one plan document writer and parser (issue 26), as the GitHub flow uses them: the plan comment carries
 * exactly this document, so a plan read back from GitHub is parsed by the same code that reads a saved file.
 */
export { readPlanDocument, writePlanDocument, type PlanDocumentMeta } from './planDocumentStandIn';

import type { Plan } from '../../core/contracts/plan';
import { canonicalJson } from '../../core/primitives/canonicalJson';
import { sha256Hex } from '../../core/primitives/hash';

/** The hash a plan document carries: over the whole plan (instructions included) and the task it answers. */
export function planDocumentHash(plan: Plan, task: string): string {
  return sha256Hex(canonicalJson({ plan, task }));
}
