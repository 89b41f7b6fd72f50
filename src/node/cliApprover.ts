/**
 * The terminal Approver. In `ask` mode every request (plan, write, command) is shown on stderr and
 * answered on stdin ("y" approves, anything else rejects, with the text as the reason). In `plan` mode only
 * the plan is asked; writes and commands inside the approved plan's authority are approved by the rule
 * "cli:approve=plan". Requests are answered one at a time, in order, even when steps run in parallel.
 */
import { createInterface, type Interface } from 'node:readline';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../core/ports';

export interface TerminalIO {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

function describe(request: ApprovalRequest): string {
  switch (request.kind) {
    case 'plan':
      return [
        `Plan v${request.plan.version}: ${request.plan.goal}`,
        ...request.plan.steps.map(
          (s) =>
            `  ${s.id}${s.required ? '' : ' (optional)'} [${s.kind}] ${s.title}` +
            `${s.dependsOn.length ? ` ← ${s.dependsOn.join(', ')}` : ''}` +
            `${s.authority.edit.length ? `\n      edit: ${s.authority.edit.join(', ')}` : ''}` +
            `${s.authority.commands.length ? `\n      run: ${s.authority.commands.join(' | ')}` : ''}`,
        ),
        'Approve this plan?',
      ].join('\n');
    case 'write':
      return `Step ${request.stepId ?? '-'} wants to ${request.change === 'created' ? 'create' : request.change === 'deleted' ? 'delete' : 'modify'} ${request.path}\n  why: ${request.why}\nAllow?`;
    case 'command':
      return `Step ${request.stepId ?? '-'} wants to run: ${request.command}\n  in: ${request.cwd}\n  why: ${request.why}\nAllow?`;
  }
}

export function createTerminalApprover(mode: 'ask' | 'plan', io: TerminalIO): Approver & { close(): void } {
  let rl: Interface | undefined;
  const lines: string[] = [];
  const waiters: ((line: string | undefined) => void)[] = [];
  let ended = false;
  const reader = (): Interface => {
    if (!rl) {
      rl = createInterface({ input: io.input, terminal: false });
      rl.on('line', (line) => {
        const w = waiters.shift();
        if (w) w(line);
        else lines.push(line);
      });
      rl.on('close', () => {
        ended = true;
        for (const w of waiters.splice(0)) w(undefined);
      });
    }
    return rl;
  };
  const nextLine = (): Promise<string | undefined> => {
    reader();
    const l = lines.shift();
    if (l !== undefined) return Promise.resolve(l);
    if (ended) return Promise.resolve(undefined);
    return new Promise((resolve) => waiters.push(resolve));
  };
  let queue: Promise<unknown> = Promise.resolve();

  return {
    request(request, signal): Promise<ApprovalDecision> {
      if (mode === 'plan' && request.kind !== 'plan') {
        return Promise.resolve({ decision: 'approved', by: 'rule', rule: 'cli:approve=plan' });
      }
      const ask = async (): Promise<ApprovalDecision> => {
        if (signal.aborted) return { decision: 'rejected', reason: 'cancelled' };
        io.output.write(`\n${describe(request)} [y/N] `);
        const onAbort = new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true }));
        const answer = await Promise.race([nextLine(), onAbort]);
        if (signal.aborted) return { decision: 'rejected', reason: 'cancelled' };
        if (answer === undefined) return { decision: 'rejected', reason: 'no answer (stdin closed)' };
        const a = answer.trim();
        if (/^(y|yes)$/i.test(a)) return { decision: 'approved', by: 'user' };
        return { decision: 'rejected', reason: a || 'rejected at the terminal' };
      };
      const next = queue.then(ask, ask);
      queue = next;
      return next;
    },
    close() {
      rl?.close();
    },
  };
}
