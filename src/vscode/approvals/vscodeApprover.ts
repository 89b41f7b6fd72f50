/**
 * The Approver port for VS Code: a proposed edit or command becomes a card on the surfaces and waits for
 * the user, unless one of the user's rules for this mission matches. The plan approval waits for
 * "Approve plan & run". An aborted wait resolves as a rejection (the port never rejects).
 *
 * Cards are listed oldest first, in the order the requests arrived, and never reshuffle: a decision removes
 * its card and nothing else moves ahead of the others.
 */
import type { ApprovalDecision, ApprovalRequest, Approver } from '../../core/ports';
import type { ApprovalRule, ApprovalView } from '../../webview/protocol';
import { matchingRule, ruleFor } from './rules';
import { onlyTheUserDecides } from '../../core/tools/consent';

type LineCount = { added: number; removed: number };

/** Longest arguments text a card shows (the decision binds to the exact arguments through the action hash). */
const MAX_ARGUMENTS_TEXT = 4_000;

function argumentsText(args: Record<string, unknown>): string {
  const text = JSON.stringify(args, null, 2);
  return text.length > MAX_ARGUMENTS_TEXT ? `${text.slice(0, MAX_ARGUMENTS_TEXT)}\n… (${text.length - MAX_ARGUMENTS_TEXT} more characters)` : text;
}

interface Pending {
  request: ApprovalRequest;
  at: string;
  /** Lines added/removed by a proposed write, once computed (null: not text, or not yet). */
  size: LineCount | null;
  /** The reason the user gave rejecting the step's previous request, when this is the step's next one. */
  answers?: string;
  resolve(decision: ApprovalDecision): void;
}

/** What the cards need to know beyond the request: the step it belongs to, where commands run, diff sizes. */
export interface ApprovalContext {
  step(stepId: string): { title: string; why: string } | undefined;
  /** The absolute directory a command runs in (requests carry it relative to the workspace). */
  absoluteCwd(cwd: string): string;
  /** Lines added and removed between two blobs (null when either is not text). */
  lineCount(beforeHash: string | null, afterHash: string | null): Promise<LineCount | null>;
  now(): number;
}

export class VsCodeApprover implements Approver {
  private readonly pending = new Map<string, Pending>();
  private rules: ApprovalRule[] = [];
  private nextRuleId = 1;
  private readonly decidedListeners: ((request: ApprovalRequest) => void)[] = [];
  /** Per step: the reason of the user's last rejection, until the step's next request (its answer) arrives. */
  private readonly rejectedBecause = new Map<string, string>();
  /** `stepId\0command` of commands the user approved for a step's executor (the verifier may ask again). */
  private readonly approvedCommands = new Set<string>();

  /**
   * `changed` is called whenever the pending cards or the rules change (the surfaces re-render).
   * `canExecute` is false in an untrusted workspace: every write and command is then refused outright.
   */
  constructor(
    private readonly changed: () => void,
    private readonly canExecute: () => boolean = () => true,
    /** approvalMode 'plan': approving the plan approves the in-authority actions (the policy already checked them). */
    private readonly planApprovesActions: () => boolean = () => false,
    private readonly context?: ApprovalContext,
  ) {}

  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    if (request.kind !== 'plan' && !this.canExecute()) {
      return Promise.resolve({ decision: 'rejected', reason: 'the workspace is not trusted: Plan & Execute does not change files or run commands in it' });
    }
    // UX only: the gate refuses anything but the user's answer for such a request (core/tools/consent.ts),
    // so it goes to a card rather than to a mode or a rule the gate would refuse.
    const mustAsk = onlyTheUserDecides(request);
    if (!mustAsk && request.kind !== 'plan' && this.planApprovesActions())
      return Promise.resolve({ decision: 'approved', by: 'rule', rule: 'approvalMode=plan' });
    const rule = mustAsk ? undefined : matchingRule(this.rules, request);
    if (rule) return Promise.resolve({ decision: 'approved', by: 'rule', rule: `${rule.kind}:${rule.pattern}` });
    if (signal.aborted) return Promise.resolve({ decision: 'rejected', reason: 'cancelled' });
    return new Promise((resolve) => {
      const onAbort = (): void => {
        this.decide(request.id, { decision: 'rejected', reason: 'cancelled' });
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const entry: Pending = {
        request,
        at: new Date(this.context?.now() ?? Date.now()).toISOString(),
        size: null,
        resolve: (decision) => {
          signal.removeEventListener('abort', onAbort);
          resolve(decision);
        },
      };
      const answers = request.stepId !== null ? this.rejectedBecause.get(request.stepId) : undefined;
      if (answers !== undefined && request.stepId !== null && request.role !== 'verifier') {
        entry.answers = answers;
        this.rejectedBecause.delete(request.stepId);
      }
      this.pending.set(request.id, entry);
      if (request.kind === 'write' && this.context) {
        // The card shows at once; its size follows when the blobs are read.
        void this.context.lineCount(request.beforeHash, request.afterHash).then(
          (size) => {
            if (this.pending.get(request.id) !== entry || !size) return;
            entry.size = size;
            this.changed();
          },
          () => undefined,
        );
      }
      this.changed();
    });
  }

  /** Called with each request once it is decided (by the user, a rule, or cancellation). */
  onDidDecide(listener: (request: ApprovalRequest) => void): void {
    this.decidedListeners.push(listener);
  }

  /** Resolves a pending request; false when it is unknown (already decided, or forged). */
  decide(requestId: string, decision: ApprovalDecision): boolean {
    const p = this.pending.get(requestId);
    if (!p) return false;
    this.pending.delete(requestId);
    p.resolve(decision);
    for (const l of this.decidedListeners) l(p.request);
    this.changed();
    return true;
  }

  /** The user's rejection: the reason goes back to the executor, and the step's next request says it answers it. */
  reject(requestId: string, reason: string): boolean {
    const p = this.pending.get(requestId);
    if (!p) return false;
    if (p.request.stepId !== null && p.request.kind !== 'plan') this.rejectedBecause.set(p.request.stepId, reason);
    return this.decide(requestId, { decision: 'rejected', reason });
  }

  approve(requestId: string, remember: boolean): boolean {
    const p = this.pending.get(requestId);
    if (!p) return false;
    const r = p.request;
    if (r.kind === 'command' && r.role !== 'verifier' && r.stepId !== null) this.approvedCommands.add(`${r.stepId}\0${r.command}`);
    // UX only: a rule learned from an answer that only the user can give would never be honoured for it.
    if (remember && !onlyTheUserDecides(p.request)) {
      const rule = ruleFor(p.request);
      if (rule) this.addRule(rule.kind, rule.pattern);
    }
    return this.decide(requestId, { decision: 'approved', by: 'user' });
  }

  /**
   * "Approve all for this step": approves what the step has waiting and, through a step rule, what it
   * asks next (until the rule is revoked or the mission ends). Returns how many waiting requests it approved.
   */
  approveStep(stepId: string): number {
    const waiting = [...this.pending.values()].filter((p) => p.request.kind !== 'plan' && p.request.stepId === stepId).length;
    if (!this.rules.some((r) => r.kind === 'step' && r.pattern === stepId)) this.addRule('step', stepId);
    return waiting;
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

  /** Cards for the surfaces, oldest first (the plan approval is shown as the plan's Approve button instead). */
  views(): ApprovalView[] {
    const out: ApprovalView[] = [];
    for (const { request: r, at, size, answers } of this.pending.values()) {
      if (r.kind === 'plan') continue;
      const step = r.stepId ? this.context?.step(r.stepId) : undefined;
      const base = {
        requestId: r.id,
        stepId: r.stepId,
        stepTitle: step?.title ?? null,
        stepWhy: step?.why || null,
        why: r.why,
        at,
        verification: r.role === 'verifier',
        ...(answers !== undefined ? { answers } : {}),
      };
      if (r.kind === 'write') out.push({ ...base, kind: 'write', path: r.path, change: r.change, size });
      else if (r.kind === 'mcp')
        out.push({
          ...base,
          kind: 'mcp',
          server: r.server,
          tool: r.tool,
          arguments: argumentsText(r.arguments),
          readOnly: r.readOnly,
          confinement: r.confinement,
          network: r.network,
        });
      else {
        const again = r.role === 'verifier' && r.stepId !== null && this.approvedCommands.has(`${r.stepId}\0${r.command}`);
        out.push({
          ...base,
          kind: 'command',
          command: r.command,
          cwd: this.context?.absoluteCwd(r.cwd) ?? r.cwd,
          confinement: r.confinement,
          network: r.network,
          ...(r.hostLoopback !== undefined ? { hostLoopback: r.hostLoopback } : {}),
          ...(r.staged !== undefined ? { staged: r.staged } : {}),
          ...(r.program !== undefined ? { program: r.program } : {}),
          ...(again ? { approvedForExecutor: true } : {}),
        });
      }
    }
    return out;
  }

  /** How many things wait for the user: the cards, plus the plan when it waits for approval. */
  waitingCount(): number {
    return this.pending.size;
  }

  listRules(): ApprovalRule[] {
    return [...this.rules];
  }

  addRule(kind: ApprovalRule['kind'], pattern: string): ApprovalRule {
    const rule: ApprovalRule = { id: `rule-${this.nextRuleId++}`, kind, pattern };
    this.rules.push(rule);
    // Requests already waiting that the new rule covers are approved now, as the user would expect; a card
    // only the user decides stays (UX only: the gate would refuse the rule's approval and drop the command).
    for (const [id, p] of [...this.pending]) {
      if (onlyTheUserDecides(p.request)) continue;
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
    this.rejectedBecause.clear();
    this.approvedCommands.clear();
    this.changed();
  }
}
