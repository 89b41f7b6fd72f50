/**
 * The one plan document writer and parser (issue 26, src/core/plan/document/), as the GitHub flow uses
 * them: the plan comment carries exactly this document, and a comment is run only when its document is
 * intact — it reads and validates, its hash is the hash of the plan, task and base commit it holds, and its
 * text is the writer's own rendering of them.
 */
export { writePlanDocument } from '../../core/plan/document/write';
export { checkPlanDocumentIntact } from '../../core/plan/document/intact';
export { planDocumentHash, type PlanDocumentMeta } from '../../core/plan/document/meta';
