/**
 * What a plan document says besides the plan, and the hash that binds the two.
 *
 * The hash is SHA-256 (hex) of the canonical JSON (keys sorted, src/core/primitives/canonicalJson.ts) of
 * `{ format, task, baseCommit, plan }`: the document format's name, the task, the base commit (null when
 * none) and the whole typed plan as the engine holds it — every field of every step, defaults filled
 * (instructions, authority, binding, evidence, risk, effort, tier), plus goal, assumptions, constraints,
 * version, parentVersion, reason, direct and, when present, invalidated and constraintChecks. It does not
 * cover the estimate (derived from prices that change) or the document's layout.
 *
 * Edited versus tampered: the writer always writes the hash of what it writes. A person who edits a local
 * document does not update the hash, so the hash no longer matches, and that is allowed: `run --plan` and
 * VS Code treat the document as edited (they say so and run or version the edited plan, validated like any
 * other). Where the document must be exactly what the product wrote — a plan comment on GitHub —
 * `checkPlanDocumentIntact` (./intact.ts) refuses it unless the hash matches and the text is the writer's
 * own rendering of the plan it holds.
 */
import type { Plan } from '../../contracts/plan';
import type { PlanEstimate } from '../../contracts/estimate';
import { canonicalJson } from '../../primitives/canonicalJson';
import { sha256Hex } from '../../primitives/hash';

/** The format's name and version, written as `format:` in the front matter; a reader refuses any other. */
export const PLAN_DOCUMENT_FORMAT = 'plan-execute/plan-document@1';

export interface PlanDocumentMeta {
  /** The task the plan was made for (the user's words). */
  task: string;
  /** The plan version the document holds (the plan's own `version`). */
  version: number;
  /** The workspace's commit when the plan was made (absent: not a git workspace, or unknown). */
  baseCommit?: string;
  /** The hash as the document states it (see the module comment); '' when the document states none. */
  hash: string;
  /** What the plan was expected to cost when the document was written (absent: not estimated). */
  estimate?: PlanEstimate;
}

/** What the writer needs: the hash and the version it computes itself from the plan. */
export type PlanDocumentMetaInput = Omit<PlanDocumentMeta, 'hash' | 'version'> & Partial<Pick<PlanDocumentMeta, 'hash' | 'version'>>;

/** One problem with a document: the 1-based line it concerns and what is wrong there. */
export interface PlanDocumentError {
  line: number;
  message: string;
  /** For a validation error: the plan's JSON path ("steps[2].dependsOn[0]"). */
  path?: string;
}

/** The hash a document of this plan, task and base commit carries (see the module comment). */
export function planDocumentHash(plan: Plan, meta: Pick<PlanDocumentMetaInput, 'task' | 'baseCommit'>): string {
  return sha256Hex(canonicalJson({ format: PLAN_DOCUMENT_FORMAT, task: meta.task, baseCommit: meta.baseCommit ?? null, plan }));
}

/** True when the document's stated hash is the hash of what it holds (false: edited since it was written). */
export function hashMatches(plan: Plan, meta: PlanDocumentMeta): boolean {
  return meta.hash === planDocumentHash(plan, meta);
}
