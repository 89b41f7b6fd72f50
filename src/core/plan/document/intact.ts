/**
 * For documents that must be exactly what the product wrote (a plan comment on GitHub, approved by a
 * person who read it): the document reads and validates, its stated hash is the hash of the plan, task
 * and base commit it holds, and its text is the writer's own rendering of them — so what the reviewer saw
 * is what runs, and any edit, even one that re-states a matching hash, is refused. Local documents are
 * meant to be edited; they go through `readPlanDocument` alone (see ./meta.ts).
 */
import { err, ok, type Result } from '../../contracts/result';
import type { ValidatePlanOptions } from '../validate';
import { hashMatches, type PlanDocumentError } from './meta';
import { readPlanDocument, type PlanDocument } from './read';
import { writePlanDocument } from './write';

/** The document's plan, or why it is not intact (unreadable, invalid, edited or re-rendered differently). */
export function checkPlanDocumentIntact(text: string, options: ValidatePlanOptions = {}): Result<PlanDocument, PlanDocumentError[]> {
  const read = readPlanDocument(text, options);
  if (!read.ok) return read;
  const { plan, meta } = read.value;
  if (meta.hash === '') return err([{ line: 1, message: 'the document states no hash; only a document the product wrote can be run from here' }]);
  if (!hashMatches(plan, meta)) return err([{ line: 1, message: 'the hash does not match the plan: the document was edited after it was written' }]);
  const normalised = text.replace(/^\ufeff/, '').replace(/\r\n/g, '\n');
  const rendering = writePlanDocument(plan, meta);
  if (normalised !== rendering && normalised !== rendering.replace(/\n$/, '')) {
    const a = normalised.split('\n');
    const b = rendering.split('\n');
    const at = a.findIndex((line, i) => line !== b[i]);
    return err([
      {
        line: (at === -1 ? a.length : at) + 1,
        message: 'the text differs from the rendering of the plan it holds: the document was edited after it was written',
      },
    ]);
  }
  return ok(read.value);
}
