/**
 * One wording for an evidence check, wherever a person or a model reads it: the executor's handoff, the
 * verifier's prompt, the names of verification results in the trace, and the sidebar's step cards.
 */
import type { EvidenceCheck } from '../contracts/plan';

export function describeCheck(check: EvidenceCheck): string {
  switch (check.kind) {
    case 'command':
      return `command \`${check.command}\` exits ${check.expectExitCode}${check.expectOutputIncludes ? ` and prints "${check.expectOutputIncludes}"` : ''}`;
    case 'files_exist':
      return `files exist: ${check.paths.join(', ')}`;
    case 'file_contains':
      return `${check.path} contains "${check.text}"`;
    case 'review':
      return `review: ${check.criterion}`;
  }
}
