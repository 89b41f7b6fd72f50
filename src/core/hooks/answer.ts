/**
 * What one hook's run says, from its exit code and output (Claude Code's contract), and how several
 * hooks' answers combine. Pure. In order:
 *   1. did not finish (timeout, could not start) or exited other than 0 and 2: a warning naming the hook,
 *      and the action proceeds — unless the entry says `"failClosed": true`, then it is a deny (PreToolUse)
 *      or a block;
 *   2. exit 2: deny (PreToolUse) or block (PostToolUse, Stop, UserPromptSubmit) with stderr as the reason;
 *      SessionStart cannot block (its stderr is a warning for the user);
 *   3. exit 0: stdout is read as JSON when it looks like JSON (malformed JSON is a warning, never a crash) —
 *      `continue: false` blocks with `stopReason`; PreToolUse's `hookSpecificOutput.permissionDecision`
 *      allow / deny / ask with `permissionDecisionReason` (the older `decision: "approve" | "block"` too);
 *      `decision: "block"` with `reason` for the other events; `hookSpecificOutput.additionalContext` is
 *      context. For UserPromptSubmit and SessionStart plain stdout is context too.
 * Combining: the most restrictive decision wins (deny/block > ask > allow > none); every reason of the
 * winning decision and every context are kept, each with the hook that said it.
 */
import { z } from 'zod';
import type { Hook, HookDecision, HookEvent } from '../contracts/hooks';

/** A hook process as it ended. */
export interface HookProcessEnd {
  /** null: killed or never started. */
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** Why it could not start, when it could not. */
  startError?: string;
}

export interface HookAnswer {
  decision: HookDecision;
  reason: string;
  context: string;
  warning: string;
}

const MAX_TEXT = 10_000;

const OutputSchema = z
  .object({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    decision: z.enum(['approve', 'block', 'allow', 'deny']).optional(),
    reason: z.string().optional(),
    systemMessage: z.string().optional(),
    hookSpecificOutput: z
      .object({
        permissionDecision: z.enum(['allow', 'deny', 'ask']).optional(),
        permissionDecisionReason: z.string().optional(),
        additionalContext: z.string().optional(),
        updatedInput: z.unknown().optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();

const RANK: Record<HookDecision, number> = { none: 0, allow: 1, ask: 2, deny: 3, block: 3 };

const cut = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… [cut at ${MAX_TEXT} characters]` : text);

/** A hook as the user knows it: its command and where it is written. */
function hookName(hook: Pick<Hook, 'command' | 'source' | 'event'>): string {
  return `the ${hook.event} hook \`${hook.command}\` (${hook.source})`;
}

/** What "stop" means for the event: PreToolUse denies the tool; the others block. */
const stopping = (event: HookEvent): HookDecision => (event === 'PreToolUse' ? 'deny' : 'block');

export function answerOf(hook: Hook, end: HookProcessEnd): HookAnswer {
  const none: HookAnswer = { decision: 'none', reason: '', context: '', warning: '' };
  const stderr = end.stderr.trim();
  if (end.timedOut || end.exitCode === null || (end.exitCode !== 0 && end.exitCode !== 2)) {
    const what = end.timedOut
      ? `timed out after ${hook.timeoutSec} s and was killed with its process group`
      : end.exitCode === null
        ? `could not run${end.startError ? `: ${end.startError}` : ''}`
        : `failed with exit code ${end.exitCode}${stderr ? `: ${cut(stderr)}` : ''}`;
    const warning = `${hookName(hook)} ${what}`;
    if (!hook.failClosed) return { ...none, warning: `${warning}; the action proceeds` };
    return { ...none, decision: stopping(hook.event), reason: `${warning} ("failClosed": true)`, warning };
  }
  if (end.exitCode === 2) {
    if (hook.event === 'SessionStart') return { ...none, warning: `${hookName(hook)} exited 2 (SessionStart cannot block)${stderr ? `: ${cut(stderr)}` : ''}` };
    return { ...none, decision: stopping(hook.event), reason: cut(stderr) || `${hookName(hook)} exited 2` };
  }
  return answerOfOutput(hook, end.stdout);
}

function answerOfOutput(hook: Hook, stdout: string): HookAnswer {
  const none: HookAnswer = { decision: 'none', reason: '', context: '', warning: '' };
  const text = stdout.trim();
  const promptEvent = hook.event === 'UserPromptSubmit' || hook.event === 'SessionStart';
  if (!text.startsWith('{')) return promptEvent && text !== '' ? { ...none, context: cut(text) } : none;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    if (promptEvent) return { ...none, context: cut(text) };
    return { ...none, warning: `${hookName(hook)} printed output that is not valid JSON; it was ignored` };
  }
  const parsed = OutputSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    return { ...none, warning: `${hookName(hook)} printed JSON this contract does not read (${problems}); it was ignored` };
  }
  const out = parsed.data;
  const specific = out.hookSpecificOutput;
  const context = cut(specific?.additionalContext ?? '');
  const warning =
    specific?.updatedInput !== undefined
      ? `${hookName(hook)} asked to change the tool's input (updatedInput), which is not supported: the action is unchanged`
      : '';
  if (out.continue === false)
    return { decision: stopping(hook.event), reason: cut(out.stopReason ?? `${hookName(hook)} said not to continue`), context, warning };
  if (hook.event === 'PreToolUse') {
    const legacy = out.decision === 'approve' || out.decision === 'allow' ? 'allow' : out.decision === 'block' || out.decision === 'deny' ? 'deny' : undefined;
    const decision = specific?.permissionDecision ?? legacy ?? 'none';
    const reason = specific?.permissionDecisionReason ?? out.reason ?? '';
    return { decision, reason: cut(reason || (decision === 'deny' ? `${hookName(hook)} denied it` : '')), context, warning };
  }
  if (out.decision === 'block') return { decision: 'block', reason: cut(out.reason ?? `${hookName(hook)} blocked it`), context, warning };
  return { ...none, context, warning };
}

/** One hook's answer, with the hook. */
export interface HookVerdict {
  hook: Hook;
  answer: HookAnswer;
}

export interface Combined {
  decision: HookDecision;
  /** The reasons of the hooks that gave the winning decision, each naming its hook. */
  reason: string;
  /** The hooks that gave it (their commands), for the trace and the card. */
  by: string[];
  /** Every hook's context, in order. */
  context: string[];
}

export function combine(verdicts: readonly HookVerdict[]): Combined {
  let decision: HookDecision = 'none';
  for (const v of verdicts) if (RANK[v.answer.decision] > RANK[decision]) decision = v.answer.decision;
  // deny and block rank the same; an event only ever gives one of them.
  const winners = decision === 'none' ? [] : verdicts.filter((v) => RANK[v.answer.decision] === RANK[decision]);
  return {
    decision,
    reason: winners
      .map((v) => v.answer.reason)
      .filter((r) => r !== '')
      .join('\n'),
    by: winners.map((v) => `${v.hook.command} (${v.hook.source})`),
    context: verdicts.map((v) => v.answer.context).filter((c) => c !== ''),
  };
}
