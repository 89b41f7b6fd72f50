/**
 * What a command's tool result tells the model. The command's own truth comes first and always: its exit
 * status (or signal), duration and output — a test run that also touched a file outside the edit globs
 * still says its tests passed. Beside it, one line each, every product note with its real reason:
 *   - the program that ran, when a workspace program of that name on PATH was passed over (programPath.ts);
 *   - what was applied to the workspace (staged) or changed in it (direct);
 *   - what is kept for this step only, and why (the ignore file and pattern, a tool cache, an empty folder),
 *     or, writing directly, which ignored folders were this command's private, thrown-away copies;
 *   - what was NOT applied, and why (outside the edit globs, protected, hidden, a link leading outside,
 *     the checkpoint's limit named, git's record…), or rolled back / NOT rolled back (direct writes);
 *   - a cap on the judge's work passed (stagedCaps.ts: nothing of the layer applied or kept, the cap named);
 *   - what Revert step does not cover, git's data taken, the runner's notes, a file another user owns, a
 *     missing network grant.
 * Lists name at most a few dozen paths and a count (pathSummary.ts). The call fails (permission_denied,
 * with the rule that refused) when something was refused or undone, timed out or was cancelled — and the
 * failure carries this same text, so the model reads the command's exit and output either way.
 */
import type { Confinement } from '../contracts/sandbox';
import type { CommandRun, Failure } from '../contracts/results';
import type { StagedOutcome } from './stagedRun';
import type { Refusal } from './stagedJudge';
import type { Reconciled } from './commandEffects';
import { cancelled, permissionDenied, timedOut } from './failures';
import type { ToolEnv } from './readTools';
import { failed, type CallResult } from './toolRecorder';
import { groupedList, namedList } from './pathSummary';

/** What a failed command prints when it wanted the network (npm, pip, git, curl, node's fetch…). */
const NETWORK_ERROR =
  /ENOTFOUND|EAI_AGAIN|ENETUNREACH|ECONNREFUSED|ENOTCACHED|getaddrinfo|Could not resolve host|Network is unreachable|Temporary failure in name resolution|offline mode|--offline|Failed to establish a new connection|fetch failed/i;

/** What a failed staged command prints when it wrote a file whose owner has no id in its user namespace. */
const OWNER_ERROR = /EOVERFLOW|Value too large for defined data type/;

export interface CommandOutcome {
  run: CommandRun;
  confinement: Confinement;
  staged: StagedOutcome | undefined;
  reconciled: Reconciled;
  /** Direct writes: folders git ignores outside the edit globs that this command wrote a private, thrown-away copy of. */
  privateOutputs?: string[];
  /** The program that ran, when the lookup passed over one in the workspace (programPath.ts). */
  program?: { name: string; path: string; passedOver: string };
}

/** A staged refusal as the trace and the CLI name it: `path (what: why)`. */
export function refusalText(r: Refusal): string {
  return `${r.path} (${r.what}: ${r.why})`;
}

/** The failure's rule: the edit globs when one of them is why (the common case), else the first refusal's. */
function ruleOf(refused: readonly Refusal[]): string {
  return `sandbox.${refused.some((r) => r.rule === 'outside_edit_scope') ? 'outside_edit_scope' : (refused[0]?.rule ?? 'outside_edit_scope')}`;
}

function notesOf(env: ToolEnv, o: CommandOutcome): string[] {
  const { run, staged, reconciled, program } = o;
  const accepted = staged ? staged.accepted : reconciled.accepted;
  const uncovered = staged ? staged.uncovered : reconciled.uncovered;
  const refused = staged?.refused ?? [];
  const unjudgeable = staged?.unjudgeable ?? [];
  return [
    program ? `[sandbox: \`${program.name}\` ran as ${program.path}; ${program.passedOver} (in the workspace, earlier on PATH) was passed over]` : '',
    accepted.length > 0
      ? `[${staged ? 'applied to the workspace' : 'files changed by the command'}: ${namedList(accepted.map((c) => `${c.path} (${c.change})`))}]`
      : '',
    (o.privateOutputs ?? []).length > 0
      ? `[sandbox: private to this command — git ignores them and the step's edit globs do not name them, so what it wrote there is thrown away when it ends (name them in the edit globs to keep a build): ${namedList(o.privateOutputs ?? [])}]`
      : '',
    staged && staged.kept.length > 0
      ? `[kept for this step only — its later commands and its verifier see them, the workspace never does: ${groupedList(staged.kept.map((k) => ({ name: k.path, why: k.why })))}]`
      : '',
    refused.length + unjudgeable.length > 0
      ? `[NOT applied to the workspace, which still holds what it held: ${[
          refused.length > 0 ? groupedList(refused.map((r) => ({ name: `${r.path} (${r.what})`, why: r.why }))) : '',
          unjudgeable.length > 0 ? namedList(unjudgeable) : '',
        ]
          .filter((p) => p !== '')
          .join('; ')}]`
      : '',
    reconciled.rolledBack.length > 0 ? `[rolled back: ${namedList(reconciled.rolledBack)}]` : '',
    reconciled.unrestored.length > 0 ? `[NOT rolled back (still in the workspace): ${namedList(reconciled.unrestored)}]` : '',
    uncovered.length > 0 ? `[not covered by Revert step: ${namedList(uncovered)}]` : '',
    staged && staged.gitTaken > 0 ? `[git: ${staged.gitTaken} file(s) of git's data taken into the repository]` : '',
    staged?.capped ? `[NOT applied or kept: ${staged.capped}]` : '',
    ...(staged?.notes ?? []).map((n) => `[sandbox: ${n}]`),
    staged && run.exitCode !== 0 && OWNER_ERROR.test(run.output)
      ? "[sandbox: a file another user owns could not be written (EOVERFLOW): the staging layer keeps each file's owner, and this sandbox's user namespace maps only your own ids (root's does not need one); make the file yours — its owner can `chown` it to you, or copy it over itself (`cp f f.new && mv f.new f`) — and run the command again]"
      : '',
    !env.policy.authority.network && run.exitCode !== 0 && NETWORK_ERROR.test(run.output)
      ? '[sandbox: this step has no network grant, so the command could not reach the network (package managers are told they are offline); a step that must download names `network` in its authority, which the user approves in the plan]'
      : '',
  ].filter((l) => l !== '');
}

/** Why the call fails, when it does: refused or undone changes (staged, direct), a cancel, a timeout. */
function failureOf(env: ToolEnv, o: CommandOutcome, exit: string): Failure | undefined {
  const { ctx, policy } = env;
  const { run, staged, reconciled } = o;
  const partial = { files: staged ? staged.accepted : reconciled.accepted, commands: [run] };
  if (ctx.signal.aborted) return { ...cancelled('the command was cancelled; its process tree was killed'), partialSideEffects: partial };
  if (staged?.capped)
    return {
      ...permissionDenied('sandbox.layer_cap', `the command ran to its end (${exit}); ${staged.capped}. The command's output follows.`),
      partialSideEffects: partial,
    };
  const refused = staged?.refused ?? [];
  const unjudgeable = staged?.unjudgeable ?? [];
  const notApplied = refused.length + unjudgeable.length;
  if (notApplied > 0) {
    const named = groupedList(
      refused.map((r) => ({ name: `${r.path} (${r.what})`, why: r.why })),
      5,
    );
    return {
      ...permissionDenied(
        unjudgeable.length > 0 && refused.length === 0 ? 'sandbox.unjudgeable' : ruleOf(refused),
        `the command ran to its end (${exit}); ${notApplied} of the changes it made ${notApplied === 1 ? 'was' : 'were'} NOT applied to the workspace, which still holds what it held: ${named || namedList(unjudgeable, 5)}. The command's output and every reason follow.`,
      ),
      partialSideEffects: partial,
    };
  }
  if (reconciled.rolledBack.length > 0 || reconciled.unrestored.length > 0) {
    const parts = [
      reconciled.rolledBack.length > 0 ? `rolled back: ${namedList(reconciled.rolledBack, 5)}` : '',
      reconciled.unrestored.length > 0 ? `NOT rolled back (still in the workspace): ${namedList(reconciled.unrestored, 5)}` : '',
    ].filter((p) => p !== '');
    return {
      ...permissionDenied(
        'sandbox.outside_edit_scope',
        `the command ran to its end (${exit}) and changed what the step may not (edit globs: ${policy.authority.edit.join(', ') || 'none'}; protected and hidden paths, links leading outside); ${parts.join('; ')}. The command's output follows.`,
      ),
      partialSideEffects: partial,
    };
  }
  if (run.signal && run.durationMs >= ctx.settings.commandTimeoutMs)
    return { ...timedOut(`the command exceeded ${ctx.settings.commandTimeoutMs} ms and was killed`), partialSideEffects: partial };
  return undefined;
}

export function commandResult(env: ToolEnv, o: CommandOutcome): CallResult {
  const { run, confinement } = o;
  const marker = confinement === 'sandboxed' ? '' : `, ${confinement === 'unsandboxed' ? 'UNSANDBOXED' : 'sandbox off'}`;
  const exit = `exit code: ${run.exitCode ?? 'none'}${run.signal ? `, signal ${run.signal}` : ''}`;
  const head = `${exit}, ${Math.round(run.durationMs)} ms${marker}${run.truncated ? ', output truncated (head and tail kept)' : ''}`;
  const lines = notesOf(env, o);
  const output = `${head}\n${run.output}${lines.length > 0 ? `\n${lines.join('\n')}` : ''}`;
  const failure = failureOf(env, o, exit);
  return failure ? { ...failed(failure), output } : { ok: true, output };
}
