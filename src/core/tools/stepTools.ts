/**
 * `createStepTools(ctx)`: one step's sandboxed tools, called by the mission engine per step (role
 * 'executor', or 'verifier' — whose every write the policy refuses). Reads go through the policy; writes
 * and commands go through the approval gate (policy → recorded request → Approver → recorded decision →
 * precondition → effect). Every call is a ToolCallRecord plus a `tool_call` trace event.
 *
 * Before the first write to a file in this step its prior content is put in the blob store (checkpoint),
 * so `sideEffects().files` carries `beforeHash`/`afterHash` that `revertStep`/`stepDiff` can use later.
 * Commands run in the OS sandbox (commandRun.ts); the files they change inside the edit globs join the
 * same checkpoint.
 */
import type { CommandRun, FileChange, SideEffects } from '../contracts/results';
import type { StepTools, StepToolsContext, ToolOutcome } from '../ports';
import { applyEdit } from '../edits/applyEdit';
import { checkPolicy, runGated, type GateContext } from './approvalGate';
import { toolError } from './failures';
import { CommandEffects } from './commandEffects';
import { runCommand, type CommandSink } from './commandRun';
import { sha256Hex } from '../primitives/hash';
import { policyFor, type Policy } from '../policy/policy';
import { whileWriting } from './workspaceLock';
import { contentHash, createReadTools, numbered, toWorkspacePath, type ToolEnv } from './readTools';
import { decodeText, encodeText, toEol, type TextFile } from '../edits/textFile';
import { failed, ToolRecorder, type CallResult } from './toolRecorder';
import type { ChangeKind } from './actionHash';
import { createMcpStepTools } from './mcpCall';
import { snapshotPrivacy, type StepPrivacy } from './stepPrivacy';

export interface StepToolsExtras {
  /** The policy the tools enforce (built from the step's authority, role and the mission's grants). */
  readonly policy: Policy;
}

export interface CreateStepToolsOptions {
  /** Use this policy instead of building one (tests, or a front end that already built it). */
  policy?: Policy;
}

/** A few numbered lines around the first change, like the text editor tool shows after an edit. */
function snippetAround(before: string, after: string): string {
  let i = 0;
  while (i < before.length && i < after.length && before[i] === after[i]) i++;
  const lines = after.split(/\r?\n/);
  const changedLine = after.slice(0, i).split('\n').length;
  const first = Math.max(1, changedLine - 4);
  const last = Math.min(lines.length, changedLine + 8);
  return numbered(lines.slice(first - 1, last), first);
}

export function createStepTools(ctx: StepToolsContext, options: CreateStepToolsOptions = {}): StepTools & StepToolsExtras {
  const policy = options.policy ?? stepPolicy(ctx);
  const recorder = new ToolRecorder(ctx);
  const env: ToolEnv = { ctx, policy, recorder, gate: gateFor(ctx, recorder), ...privacyFor(ctx, policy) };
  const reads = createReadTools(env);
  const changes = new StepChanges();
  const effects = new CommandEffects(ctx.workspace, ctx.store, policy);
  const mcp = createMcpStepTools(env);
  return {
    ...reads,
    create: (path, text) => create(env, changes, path, text),
    strReplace: (path, oldText, newText) => strReplace(env, changes, path, oldText, newText),
    insert: (path, afterLine, text) => insert(env, changes, path, afterLine, text),
    bash: (command) => recorder.call('bash', { command }, () => runCommand(env, changes, effects, command)),
    sideEffects: () => changes.sideEffects(),
    policy,
    ...(mcp ? { mcp } : {}),
  };
}

/**
 * A staged executor's privacy rules (stepPrivacy.ts), taken once and before the attempt writes anything:
 * its first write or command asks for them, so neither a command's `.gitignore` nor the step's own edit
 * of one decides what the step keeps.
 */
function privacyFor(ctx: StepToolsContext, policy: Policy): Pick<ToolEnv, 'privacy'> {
  if (ctx.role !== 'executor' || ctx.layer === undefined || !ctx.terminal.staging || ctx.settings.sandbox === 'off') return {};
  let taken: Promise<StepPrivacy> | undefined;
  return { privacy: () => (taken ??= snapshotPrivacy(ctx, policy, ctx.terminal.hostFacts(ctx.env))) };
}

/** The policy built from the step's authority, role and the mission's grants. */
function stepPolicy(ctx: StepToolsContext): Policy {
  return policyFor(ctx.workspace.root, ctx.step, {
    fs: ctx.workspace.policyFs,
    role: ctx.role,
    allowSensitive: ctx.settings.allowSensitive,
    ...(ctx.forbidden ? { forbidden: ctx.forbidden } : {}),
  });
}

function gateFor(ctx: StepToolsContext, recorder: ToolRecorder): GateContext {
  return {
    missionId: ctx.missionId,
    stepId: ctx.step.id,
    approver: ctx.approver,
    record: (e) => ctx.record(e),
    signal: ctx.signal,
    newId: () => recorder.newId('_ap'),
    ledger: new Map(),
    role: ctx.role,
  };
}

/** The step's checkpoint: path → first beforeHash in this step and latest afterHash, and the commands it ran. */
class StepChanges implements CommandSink {
  readonly commands: CommandRun[] = [];
  readonly #files = new Map<string, { beforeHash: string | null; afterHash: string | null }>();

  has(path: string): boolean {
    return this.#files.has(path);
  }

  record(path: string, beforeHash: string | null, afterHash: string | null): void {
    const prior = this.#files.get(path);
    this.#files.set(path, { beforeHash: prior ? prior.beforeHash : beforeHash, afterHash });
  }

  addFileChanges(changes: FileChange[]): void {
    for (const c of changes) this.record(c.path, c.beforeHash, c.afterHash);
  }

  sideEffects(): SideEffects {
    return {
      files: [...this.#files.entries()].map(([path, f]): FileChange => ({
        path,
        change: f.afterHash === null ? 'deleted' : f.beforeHash === null ? 'created' : 'modified',
        beforeHash: f.beforeHash,
        afterHash: f.afterHash,
      })),
      commands: [...this.commands],
    };
  }
}

/** Checkpoint, approval and the write itself. `before` is what the new content was computed from. */
async function commitWrite(
  env: ToolEnv,
  changes: StepChanges,
  rel: string,
  write: { before: Uint8Array | null; after: Uint8Array | null; mode: number | undefined; describe: string },
): Promise<CallResult> {
  const { ctx, policy, gate } = env;
  const { before, after, mode, describe } = write;
  const beforeHash = before ? sha256Hex(before) : null;
  const afterHash = after ? await ctx.store.putBlob(after) : null;
  if (!changes.has(rel) && before) await ctx.store.putBlob(before);
  const change: ChangeKind = after === null ? 'deleted' : before === null ? 'created' : 'modified';
  // The step's privacy is read before its first write: an edit of `.gitignore` never decides what it keeps.
  // An edit does not need it: if it cannot be read, the staged command that does fails, saying why.
  await env.privacy?.().catch(() => undefined);
  const outcome = await runGated(
    gate,
    policy,
    { kind: after === null ? 'delete' : 'write', path: rel },
    { kind: 'write', path: rel, change, beforeHash, afterHash },
    async () => {
      // Not while another step's staged command runs over the workspace (workspaceLock.ts).
      await whileWriting(ctx.workspace.root, () =>
        ctx.workspace.applyWrites([{ path: rel, content: after, ...(mode !== undefined ? { mode } : {}) }], `${ctx.step.id}: ${describe}`),
      );
      changes.record(rel, beforeHash, afterHash);
    },
    async () => ((await contentHash(env, rel)) === beforeHash ? undefined : `${rel} changed while the write was awaiting approval`),
  );
  if (!outcome.ok) return failed(outcome.error);
  return { ok: true, output: '', fingerprint: { [rel]: afterHash } };
}

/**
 * The policy's answer before anything is read (a denied path is never opened). The gate asks again
 * right before the effect; this early check is what keeps a refused file's bytes out of memory.
 */
async function writeAllowed(env: ToolEnv, path: string): Promise<string | CallResult> {
  const rel = toWorkspacePath(env.ctx.workspace.root, path);
  const allowed = await checkPolicy(env.gate, env.policy, { kind: 'write', path: rel });
  if (!allowed.ok) return failed(allowed.error);
  return allowed.value.kind === 'run' ? rel : allowed.value.rel;
}

/** Reads the file an edit starts from (after the policy allowed writing it). */
async function readForEdit(env: ToolEnv, path: string): Promise<{ rel: string; bytes: Uint8Array; mode: number } | CallResult> {
  const { ctx } = env;
  const allowed = await writeAllowed(env, path);
  if (typeof allowed !== 'string') return allowed;
  const rel = allowed;
  const stat = await ctx.workspace.stat(rel).catch(() => undefined);
  if (!stat) return failed(toolError(`${rel} does not exist`, 'use create for a new file'));
  if (stat.kind !== 'file') return failed(toolError(`${rel} is not a regular file`));
  if (stat.size > ctx.settings.maxFileBytes) return failed(toolError(`${rel} is ${stat.size} bytes; the editor's limit is ${ctx.settings.maxFileBytes}`));
  return { rel, bytes: await ctx.workspace.readFile(rel), mode: stat.mode };
}

function create(env: ToolEnv, changes: StepChanges, path: string, text: string): Promise<ToolOutcome> {
  const { ctx } = env;
  return env.recorder.call('create', { path, text }, async () => {
    if (typeof text !== 'string') return failed(toolError('text must be a string'));
    const rel = await writeAllowed(env, path);
    if (typeof rel !== 'string') return rel;
    const after = encodeText(text, false);
    if (after.byteLength > ctx.settings.maxFileBytes)
      return failed(toolError(`the new file would be ${after.byteLength} bytes; the limit is ${ctx.settings.maxFileBytes}`));
    // The text editor tool's `create` never overwrites (models are trained on that): edits go through str_replace.
    if (await ctx.workspace.stat(rel).catch(() => undefined)) {
      return failed(
        toolError(`File already exists at: ${rel}. Cannot overwrite files using command \`create\`.`, 'use str_replace or insert to change an existing file'),
      );
    }
    const r = await commitWrite(env, changes, rel, { before: null, after, mode: undefined, describe: `create ${rel}` });
    return r.ok ? { ...r, output: `File created successfully at: ${rel} (${text.split('\n').length} lines)` } : r;
  });
}

function strReplace(env: ToolEnv, changes: StepChanges, path: string, oldText: string, newText: string): Promise<ToolOutcome> {
  const { ctx } = env;
  return env.recorder.call('str_replace', { path, oldText, newText }, async () => {
    const target = await readForEdit(env, path);
    if ('ok' in target) return target;
    const decoded = decodeText(target.bytes, ctx.settings.maxFileBytes);
    if (!decoded.ok) return failed(toolError(`${target.rel}: ${decoded.error.message}`));
    const result = applyEdit(decoded.value.text, { oldText, newText });
    if (!result.ok)
      return failed(toolError(`str_replace in ${target.rel} failed (${result.reason}): ${result.message}`, 'view the file and retry with text copied from it'));
    const after = encodeText(result.text, decoded.value.bom);
    if (after.byteLength > ctx.settings.maxFileBytes) return failed(toolError(`the edited file would exceed ${ctx.settings.maxFileBytes} bytes`));
    const r = await commitWrite(env, changes, target.rel, { before: target.bytes, after, mode: target.mode, describe: `edit ${target.rel}` });
    if (!r.ok) return r;
    const how = result.strategy === 'exact' ? '' : ` (matched ignoring ${result.strategy.replace('_', ' ')})`;
    return { ...r, output: `Edited ${target.rel}${how}. Snippet of the result:\n${snippetAround(decoded.value.text, result.text)}` };
  });
}

function insert(env: ToolEnv, changes: StepChanges, path: string, afterLine: number, text: string): Promise<ToolOutcome> {
  const { ctx } = env;
  return env.recorder.call('insert', { path, afterLine, text }, async () => {
    const target = await readForEdit(env, path);
    if ('ok' in target) return target;
    const decoded = decodeText(target.bytes, ctx.settings.maxFileBytes);
    if (!decoded.ok) return failed(toolError(`${target.rel}: ${decoded.error.message}`));
    const original = decoded.value.text;
    const lineCount = original.length === 0 ? 0 : original.split('\n').length - (decoded.value.finalNewline ? 1 : 0);
    if (!Number.isInteger(afterLine) || afterLine < 0 || afterLine > lineCount) {
      return failed(toolError(`insert_line ${afterLine} is out of range: ${target.rel} has ${lineCount} lines (use 0 to insert at the top)`));
    }
    const next = insertedAfter(decoded.value, afterLine, text);
    const after = encodeText(next, decoded.value.bom);
    if (after.byteLength > ctx.settings.maxFileBytes) return failed(toolError(`the edited file would exceed ${ctx.settings.maxFileBytes} bytes`));
    const r = await commitWrite(env, changes, target.rel, { before: target.bytes, after, mode: target.mode, describe: `insert into ${target.rel}` });
    return r.ok ? { ...r, output: `Inserted after line ${afterLine} of ${target.rel}:\n${snippetAround(original, next)}` } : r;
  });
}

/** The file's text with `text` inserted after line `afterLine`, in the file's line endings. */
function insertedAfter(file: TextFile, afterLine: number, text: string): string {
  const { text: original, eol } = file;
  let offset = 0;
  for (let n = 0; n < afterLine; n++) {
    const nl = original.indexOf('\n', offset);
    offset = nl === -1 ? original.length : nl + 1;
  }
  let piece = toEol(text, eol);
  if (!piece.endsWith(eol)) piece += eol;
  // Appending to a file without a final newline: keep it without one.
  if (offset === original.length && original.length > 0 && !file.finalNewline) piece = eol + piece.slice(0, -eol.length);
  return original.slice(0, offset) + piece + original.slice(offset);
}
