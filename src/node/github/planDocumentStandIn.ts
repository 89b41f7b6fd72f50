/**
 * TEMPORARY stand-in for the plan document of issue 26 (`src/core/plan/document/`, built on the `plan-doc`
 * branch), with exactly its announced API: `writePlanDocument(plan, meta)` and `readPlanDocument(text)`.
 * It exists only so the GitHub flow can be built and tested before that branch lands; planDocument.ts
 * re-exports whichever is in force, and this file is deleted when plan-doc is merged.
 */
import { PlanSchema, type Plan } from '../../core/contracts/plan';
import { err, ok, type Result } from '../../core/contracts/result';
import { z } from 'zod';

export interface PlanDocumentMeta {
  task: string;
  version: number;
  baseCommit?: string;
  hash: string;
}

const MetaSchema = z.object({ task: z.string(), version: z.number().int().min(1), baseCommit: z.string().optional(), hash: z.string() });

export function writePlanDocument(plan: Plan, meta: PlanDocumentMeta): string {
  return ['---', JSON.stringify(meta), '---', '', JSON.stringify(plan, null, 2), ''].join('\n');
}

export function readPlanDocument(text: string): Result<{ plan: Plan; meta: PlanDocumentMeta }, { line: number; message: string }[]> {
  const lines = text.split('\n');
  if (lines[0] !== '---' || lines[2] !== '---') return err([{ line: 1, message: 'no front matter' }]);
  try {
    const meta = MetaSchema.safeParse(JSON.parse(lines[1]!));
    const plan = PlanSchema.safeParse(JSON.parse(lines.slice(4).join('\n')));
    if (!meta.success) return err([{ line: 2, message: meta.error.message }]);
    if (!plan.success) return err([{ line: 5, message: plan.error.message }]);
    return ok({ plan: plan.data, meta: meta.data });
  } catch (error) {
    return err([{ line: 1, message: String(error) }]);
  }
}
