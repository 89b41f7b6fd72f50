/**
 * The Approver port for VS Code: a proposed edit or command becomes a card in the sidebar and waits for
 * the user, unless one of the user's rules for this mission matches. The plan approval waits for
 * "Approve plan & run". An aborted wait resolves as a rejection (the port never rejects).
 */
import type { ApprovalDecision, ApprovalRequest, Approver } from '../../core/ports';
import type { ApprovalRule, ApprovalView } from '../../webview/protocol';
import { matchingRule, ruleFor } from './rules';

interface Pending {
  request: ApprovalRequest;
  resolve(decision: ApprovalDecision): void;
}

export class VsCodeApprover implements Approver {
  private readonly pending = new Map<string, Pending>();
  private rules: ApprovalRule[] = [];
  private nextRuleId = 1;

  /**
   * `changed` is called whenever the pending cards or the rules change (the sidebar re-renders).
   * `canExecute` is false in an untrusted workspace: every write and command is then refused outright.
   */
  constructor(
    private readonly changed: () => void,
    private readonly canExecute: () => boolean = () => true,
    /** approvalMode 'plan': approving the plan approves the in-authority actions (the policy already checked them). */
    private readonly planApprovesActions: () => boolean = () => false,
  ) {}

  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    if (request.kind !== 'plan' && !this.canExecute()) {
      return Promise.resolve({ decision: 'rejected', reason: 'the workspace is not trusted: Plan & Execute does not change files or run commands in it' });
    }
    // A command that would run without the OS sandbox is the user's call every time: no mode, no rule.
    const mustAsk = request.kind === 'command' && request.confinement === 'unsandboxed';
    if (!mustAsk && request.kind !== 'plan' && this.planApprovesActions()) return Promise.resolve({ decision: 'approved', by: 'rule', rule: 'approvalMode=plan' });
    const rule = mustAsk ? undefined : matchingRule(this.rules, request);
    if (rule) return Promise.resolve({ decision: 'approved', by: 'rule', rule: `${rule.kind}:${rule.pattern}` });
    if (signal.aborted) return Promise.resolve({ decision: 'rejected', reason: 'cancelled' });
    return new Promise((resolve) => {
      const onAbort = (): void => {
        this.decide(request.id, { decision: 'rejected', reason: 'cancelled' });
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(request.id, {
        request,
        resolve: (decision) => {
          signal.removeEventListener('abort', onAbort);
          resolve(decision);
        },
      });
      this.changed();
    });
  }

  /** Resolves a pending request; false when it is unknown (already decided, or forged). */
  decide(requestId: string, decision: ApprovalDecision): boolean {
    const p = this.pending.get(requestId);
    if (!p) return false;
    this.pending.delete(requestId);
    p.resolve(decision);
    this.changed();
    return true;
  }

  approve(requestId: string, remember: boolean): boolean {
    const p = this.pending.get(requestId);
    if (!p) return false;
    if (remember && !(p.request.kind === 'command' && p.request.confinement === 'unsandboxed')) {
      const rule = ruleFor(p.request);
      if (rule) this.addRule(rule.kind, rule.pattern);
    }
    return this.decide(requestId, { decision: 'approved', by: 'user' });
  }

  get(requestId: string): ApprovalRequest | undefined {
    return this.pending.get(requestId)?.request;
  }

  /** The pending plan approval, if the engine is waiting for one. */
  pendingPlan(): Extract<ApprovalRequest, { kind: 'plan' }> | undefined {
    for (const p of this.pending.values()) if (p.request.kind === 'plan') return p.request;
    return undefined;
  }

  /**
   * The pending plan approval for `version`, waiting up to `timeoutMs` for the engine to ask (right after
   * an edit, the engine withdraws the old request and asks again for the new version).
   */
  async waitForPlan(version: number, timeoutMs: number): Promise<Extract<ApprovalRequest, { kind: 'plan' }> | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const pending = this.pendingPlan();
      if (pending?.plan.version === version || Date.now() >= deadline) return pending?.plan.version === version ? pending : undefined;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Cards for the sidebar (plan approval is shown as the plan's Approve button instead). */
  views(): ApprovalView[] {
    const out: ApprovalView[] = [];
    for (const { request: r } of this.pending.values()) {
      if (r.kind === 'write') out.push({ kind: 'write', requestId: r.id, stepId: r.stepId, why: r.why, path: r.path, change: r.change });
      else if (r.kind === 'command') out.push({ kind: 'command', requestId: r.id, stepId: r.stepId, why: r.why, command: r.command, cwd: r.cwd, confinement: r.confinement, network: r.network });
    }
    return out;
  }

  listRules(): ApprovalRule[] {
    return [...this.rules];
  }

  addRule(kind: ApprovalRule['kind'], pattern: string): ApprovalRule {
    const rule: ApprovalRule = { id: `rule-${this.nextRuleId++}`, kind, pattern };
    this.rules.push(rule);
    // Requests already waiting that the new rule covers are approved now, as the user would expect.
    for (const [id, p] of [...this.pending]) {
      if (p.request.kind === 'command' && p.request.confinement === 'unsandboxed') continue;
      if (matchingRule([rule], p.request)) this.decide(id, { decision: 'approved', by: 'rule', rule: `${rule.kind}:${rule.pattern}` });
    }
    this.changed();
    return rule;
  }

  revokeRule(ruleId: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== ruleId);
    this.changed();
    return this.rules.length < before;
  }

  /** A new mission starts with no rules and no cards; anything still waiting is rejected. */
  reset(reason: string): void {
    for (const id of [...this.pending.keys()]) this.decide(id, { decision: 'rejected', reason });
    this.rules = [];
    this.changed();
  }
}
