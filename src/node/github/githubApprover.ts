/**
 * The Approver of a mission approved on GitHub. A person approved one plan with `/approve`; nobody is at the
 * runner to ask anything else, so:
 *  1. the plan request for exactly that plan (the engine restamps its version) → approved by that person's rule;
 *  2. any other plan — a replanned version — → rejected: a new plan needs a person's `/approve` on the issue;
 *  3. a command that would run outside the OS sandbox → rejected (it must be asked, and nobody can answer);
 *  4. writes, sandboxed commands and MCP calls → approved by rule: the policy already held them to the
 *     approved step's authority before they got here.
 */
import type { Plan } from '../../core/contracts/plan';
import type { Approver } from '../../core/ports';
import { canonicalJson } from '../../core/primitives/canonicalJson';

const content = (plan: Plan): string => canonicalJson({ ...plan, version: 0, parentVersion: null, reason: '' });

export function createGitHubApprover(approved: Plan, approvedBy: string): Approver {
  const approvedContent = content(approved);
  const rule = `github:/approve by @${approvedBy}`;
  return {
    request(request) {
      if (request.kind === 'plan') {
        if (content(request.plan) === approvedContent) return Promise.resolve({ decision: 'approved', by: 'rule', rule });
        return Promise.resolve({
          decision: 'rejected',
          reason: `plan v${request.plan.version} was replanned on the runner and nobody approved it; comment /plan-execute on the issue for a new plan to review`,
        });
      }
      if (request.kind === 'command' && request.confinement === 'unsandboxed') {
        return Promise.resolve({ decision: 'rejected', reason: 'this command would run without the OS sandbox, and on GitHub nobody is there to allow it' });
      }
      return Promise.resolve({ decision: 'approved', by: 'rule', rule: `${rule} (within the approved step's authority)` });
    },
  };
}
