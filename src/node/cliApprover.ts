/**
 * The terminal Approver. In `ask` mode every request (plan, write, command) is shown on stderr and
 * answered on stdin ("y" approves, anything else rejects, with the text as the reason). In `plan` mode only
 * the plan is asked; writes and commands inside the approved plan's authority are approved by the rule
 * "cli:approve=plan". In `all` mode nothing is asked — except, in every mode, a command that would run
 * without the OS sandbox (`--sandbox prefer` on a machine without one), or an action a PreToolUse hook asked
 * about: the approval gate accepts only the user's answer for those (core/tools/consent.ts), so they are
 * always asked.
 * Requests are answered one at a time, in order, even when steps run in parallel.
 */
import { createInterface, type Interface } from 'node:readline';
import type { ApprovalDecision, ApprovalRequest, Approver, Store } from '../core/ports';
import { unifiedDiff } from '../core/edits/lineDiff';
import { terminalSafe } from './terminalText';
import { describeConstraintCheck, describeCost, describeGrants } from '../core/plan/describe';
import { onlyTheUserDecides } from '../core/tools/consent';

export interface TerminalIO {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

const MAX_DIFF_LINES = 60;

/** The diff of a proposed write, from the blobs the sandbox stored for it (capped for the terminal). */
async function diffOf(request: Extract<ApprovalRequest, { kind: 'write' }>, store: Store | undefined): Promise<string> {
  if (!store) return '';
  const text = async (hash: string | null): Promise<string | null> => {
    if (hash === null) return null;
    const blob = await store.getBlob(hash);
    return blob === undefined ? null : new TextDecoder().decode(blob);
  };
  try {
    const lines = unifiedDiff(request.path, await text(request.beforeHash), await text(request.afterHash)).split('\n');
    const shown = lines.slice(0, MAX_DIFF_LINES).join('\n');
    return lines.length > MAX_DIFF_LINES ? `${shown}\n… (${lines.length - MAX_DIFF_LINES} more diff lines)` : shown;
  } catch {
    return ''; // the blobs cannot be read (an I/O fault): the question is asked without the diff, the path stands
  }
}

function describe(request: ApprovalRequest): string {
  switch (request.kind) {
    case 'plan': {
      const estimates = new Map((request.estimate?.steps ?? []).map((e) => [e.stepId, e]));
      const cost = (id: string): string => {
        const e = estimates.get(id);
        return e ? `\n      estimate: ${describeCost(e)} on ${e.models.join(', ')}` : '';
      };
      return [
        `Plan v${request.plan.version}: ${request.plan.goal}`,
        ...request.plan.steps.map(
          (s) =>
            `  ${s.id}${s.required ? '' : ' (optional)'} [${s.kind}] ${s.title}` +
            `${s.dependsOn.length ? ` ← ${s.dependsOn.join(', ')}` : ''}` +
            `${s.authority.edit.length ? `\n      edit: ${s.authority.edit.join(', ')}` : ''}` +
            `${s.authority.commands.length ? `\n      run: ${s.authority.commands.join(' | ')}` : ''}` +
            `${s.authority.network ? '\n      network: granted' : ''}` +
            `${s.authority.mcp.length ? `\n      ${describeGrants(s.authority)}` : ''}` +
            cost(s.id),
        ),
        ...(request.plan.constraints.length ? ['Constraints:', ...request.plan.constraints.map((c) => `  - ${c}`)] : []),
        ...(request.plan.constraintChecks?.length
          ? ['Checked in code:', ...request.plan.constraintChecks.map((c) => `  - ${describeConstraintCheck(c)}`)]
          : []),
        ...(request.estimate
          ? [`Estimated cost before it runs: ${describeCost(request.estimate)} (executor and verifier calls; retries and replans not included)`]
          : []),
        'Approve this plan?',
      ].join('\n');
    }
    case 'write':
      return `Step ${request.stepId ?? '-'} wants to ${request.change === 'created' ? 'create' : request.change === 'deleted' ? 'delete' : 'modify'} ${request.path}\n  why: ${request.why}\nAllow?`;
    case 'mcp': {
      const where = {
        sandboxed: `the server runs in the step's OS sandbox (no writes; network ${request.network ? 'granted' : 'off'})`,
        unsandboxed: 'the server runs UNSANDBOXED (sandbox off)',
        remote: 'a remote server: what it does is not confined by Plan & Execute',
        vscode: 'a server VS Code runs: not confined by Plan & Execute',
      }[request.confinement];
      const args = JSON.stringify(request.arguments, null, 2);
      const shown = args.length > 2_000 ? `${args.slice(0, 2_000)}\n… (${args.length - 2_000} more characters)` : args;
      return `Step ${request.stepId ?? '-'}${request.role === 'verifier' ? ' (verification)' : ''} wants to call MCP tool ${request.server}/${request.tool}${request.readOnly ? ' (read-only hint)' : ''}\n  arguments: ${shown.split('\n').join('\n  ')}\n  ${where}\n  why: ${request.why}\nAllow? (a = always allow this tool in this mission)`;
    }
    case 'command': {
      const where =
        request.confinement === 'sandboxed'
          ? `inside the OS sandbox, ${request.staged === false ? "writing your workspace directly (no staging layer here; changes outside the step's globs are undone afterwards)" : 'writing a private layer (only what the step may change reaches your workspace)'}`
          : request.confinement === 'unsandboxed'
            ? 'UNSANDBOXED: there is no OS sandbox here; it can do anything you can'
            : 'unsandboxed (sandbox off)';
      return `Step ${request.stepId ?? '-'} wants to run: ${request.command}\n  in: ${request.cwd}${request.program ? `\n  program: ${request.program}` : ''}\n  runs: ${where}; network ${request.network ? `granted${request.hostLoopback ? " — the host's, so this machine's own services on 127.0.0.1 (debugger ports, databases, code-server) too" : " (its own: this machine's loopback services stay closed)"}` : 'off'}\n  why: ${request.why}\nAllow?`;
    }
  }
}

export function createTerminalApprover(mode: 'ask' | 'plan' | 'all', io: TerminalIO, store?: Store): Approver & { close(): void } {
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
  /** MCP tools the user allowed for the rest of the mission ("a" at the prompt). */
  const alwaysTools = new Set<string>();

  return {
    request(request, signal): Promise<ApprovalDecision> {
      // UX only: the gate refuses a mode's approval for what only the user decides (core/tools/consent.ts),
      // so such a request is asked at the terminal in every mode.
      const mustAsk = onlyTheUserDecides(request);
      if (request.kind === 'mcp' && alwaysTools.has(`${request.server}/${request.tool}`)) {
        return Promise.resolve({ decision: 'approved', by: 'rule', rule: `cli:always mcp ${request.server}/${request.tool}` });
      }
      if (!mustAsk && mode === 'all') return Promise.resolve({ decision: 'approved', by: 'rule', rule: 'cli:approve=all' });
      if (!mustAsk && mode === 'plan' && request.kind !== 'plan') {
        return Promise.resolve({ decision: 'approved', by: 'rule', rule: 'cli:approve=plan' });
      }
      const ask = async (): Promise<ApprovalDecision> => {
        if (signal.aborted) return { decision: 'rejected', reason: 'cancelled' };
        // Allowed for the mission while this request waited in the queue.
        if (request.kind === 'mcp' && alwaysTools.has(`${request.server}/${request.tool}`)) {
          return { decision: 'approved', by: 'rule', rule: `cli:always mcp ${request.server}/${request.tool}` };
        }
        const diff = request.kind === 'write' ? await diffOf(request, store) : '';
        const asked = request.askedBy ? `  a hook asks you to decide: ${request.askedBy.reason || request.askedBy.hook}\n` : '';
        io.output.write(terminalSafe(`\n${diff ? `${diff}\n` : ''}${asked}${describe(request)} [y/N] `));
        const onAbort = new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true }));
        const answer = await Promise.race([nextLine(), onAbort]);
        if (signal.aborted) return { decision: 'rejected', reason: 'cancelled' };
        if (answer === undefined) return { decision: 'rejected', reason: 'no answer (stdin closed)' };
        const a = answer.trim();
        if (/^(y|yes)$/i.test(a)) return { decision: 'approved', by: 'user' };
        if (request.kind === 'mcp' && /^(a|always)$/i.test(a)) {
          alwaysTools.add(`${request.server}/${request.tool}`);
          return { decision: 'approved', by: 'user' };
        }
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
