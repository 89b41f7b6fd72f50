/**
 * The read-only half of a step's tools: view, list, search, fetchToolResult. Every path goes through the
 * step's policy (reads, and listings filtered entry by entry), and a `view` of a file that is unchanged
 * since an earlier `view` in the mission returns that stored result instead of reading again.
 */
import picomatch from 'picomatch';
import type { ReadOnlyTools, StepToolsContext, ToolOutcome } from '../ports';
import type { GateContext } from './approvalGate';
import type { StepPrivacy } from './stepPrivacy';
import { checkPolicy } from './approvalGate';
import { toolError } from './failures';
import { sha256Hex } from '../primitives/hash';
import { BoundedLineMatcher } from './boundedRegex';
import { isReadable, type Policy } from '../policy/policy';
import { decodeText } from '../edits/textFile';
import { failed, type CallResult, type ToolRecorder } from './toolRecorder';
import { pathBelow } from '../primitives/paths';

export interface ToolEnv {
  ctx: StepToolsContext;
  policy: Policy;
  recorder: ToolRecorder;
  gate: GateContext;
  /**
   * What a staged step keeps for itself (stepPrivacy.ts), read once, before the attempt's first write or
   * command; absent where commands are not staged (the verifier, a terminal without staging).
   */
  privacy?: () => Promise<StepPrivacy>;
}

const SKIP_DIRS = new Set(['.git', 'node_modules', '.plan-execute']);
const MAX_LIST_ENTRIES = 1000;
const MAX_SEARCH_FILES = 5000;
const MAX_SEARCH_MATCHES = 200;
const MAX_SEARCH_LINE = 1000;
/** Wall time one search's matching may take in all (a catastrophic pattern is stopped, not waited for). */
const SEARCH_TIME_MS = 2000;
/** Text gathered before a batch of files is matched in one bounded call. */
const SEARCH_BATCH_CHARS = 512 * 1024;

/** Models often send absolute paths; one that names the workspace root exactly is made relative. */
export function toWorkspacePath(root: string, path: string): string {
  if (typeof path !== 'string') return path;
  return path === root ? '.' : (pathBelow(path, root) ?? path);
}

export async function contentHash(env: ToolEnv, rel: string): Promise<string | null> {
  const stat = await env.ctx.workspace.stat(rel);
  if (!stat || stat.kind !== 'file') return null;
  return sha256Hex(await env.ctx.workspace.readFile(rel));
}

export function numbered(lines: string[], firstLine: number): string {
  return lines.map((l, i) => `${String(firstLine + i).padStart(6)}\t${l}`).join('\n');
}

async function listing(env: ToolEnv, rel: string, depth: number): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, level: number): Promise<void> => {
    const entries = [...(await env.ctx.workspace.readDir(dir))].sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (out.length >= MAX_LIST_ENTRIES) return;
      const child = dir === '.' ? e.name : `${dir}/${e.name}`;
      const isDir = e.kind === 'directory';
      if (!isReadable(env.policy, child, isDir)) continue;
      out.push(isDir ? `${child}/` : child);
      if (isDir && level < depth && !SKIP_DIRS.has(e.name)) await walk(child, level + 1);
    }
  };
  await walk(rel, 1);
  return out;
}

/** Rejects regexes with a quantified group that itself holds a quantifier (catastrophic backtracking). */
function compileSearch(pattern: string): RegExp {
  if (!/\([^)]*[*+][^)]*\)[*+{]/.test(pattern)) {
    try {
      return new RegExp(pattern);
    } catch {
      // not a regex: search for it literally
    }
  }
  return new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

export function createReadTools(env: ToolEnv): ReadOnlyTools {
  return {
    view: (path, range) => view(env, path, range),
    list: (path, depth = 2) => list(env, path, depth),
    search: (pattern, glob) => search(env, pattern, glob),
    fetchToolResult: (toolCallId) => fetchToolResult(env, toolCallId),
  };
}

/** A directory's listing, or a file's numbered lines (an earlier view's result while the file is unchanged). */
function view(env: ToolEnv, path: string, range?: [number, number]): Promise<ToolOutcome> {
  const { ctx, recorder } = env;
  const rel0 = toWorkspacePath(ctx.workspace.root, path);
  const input = { path: rel0, range: range ?? null };
  return recorder.call('view', input, async (): Promise<CallResult> => {
    const allowed = await checkPolicy(env.gate, env.policy, { kind: 'read', path: rel0 });
    if (!allowed.ok) return failed(allowed.error);
    if (allowed.value.kind === 'run') throw new Error('unreachable');
    const rel = allowed.value.rel;
    // A symlink (the policy resolved it inside the workspace) is judged by its target: the link's own size
    // says nothing, and reading a link to a FIFO would block forever.
    const lstat = await ctx.workspace.stat(rel);
    const target = lstat?.kind === 'symlink' ? allowed.value.realRel : rel;
    const stat = lstat?.kind === 'symlink' ? await ctx.workspace.stat(target) : lstat;
    if (!stat) return failed(toolError(`${rel} does not exist`, 'use list to see what exists'));
    if (stat.kind === 'directory') {
      const entries = await listing(env, rel, 2);
      return { ok: true, output: `Files and directories up to 2 levels deep in ${rel}:\n${entries.join('\n')}` };
    }
    if (stat.kind === 'other') return failed(toolError(`${rel} is not a regular file (device, socket or pipe)`));
    if (stat.kind === 'file' && stat.size > ctx.settings.maxFileBytes) {
      return failed(toolError(`${rel} is ${stat.size} bytes; the editor's limit is ${ctx.settings.maxFileBytes}`, 'use search to find the part you need'));
    }
    const reusable = await ctx.toolCalls.findReusable('view', input, (p) => contentHash(env, p));
    if (reusable) {
      return { ok: true, output: reusable.output, fingerprint: reusable.inputsFingerprint, reusedFrom: reusable.reusedFrom ?? reusable.id };
    }
    return numberedView(env, rel, target, range);
  });
}

/** The file's lines in `range` (all of them without one), numbered; `rel` names it, `target` is what is read. */
async function numberedView(env: ToolEnv, rel: string, target: string, range: [number, number] | undefined): Promise<CallResult> {
  const { ctx } = env;
  const bytes = await ctx.workspace.readFile(target);
  const decoded = decodeText(bytes, ctx.settings.maxFileBytes);
  if (!decoded.ok) return failed(toolError(`${rel}: ${decoded.error.message}`));
  const lines = decoded.value.text.split(/\r?\n/);
  if (decoded.value.finalNewline) lines.pop();
  let first = 1;
  let last = lines.length;
  if (range) {
    const [a, b] = range;
    if (!Number.isInteger(a) || !Number.isInteger(b) || a < 1 || a > Math.max(1, lines.length) || (b !== -1 && (b < a || b > lines.length))) {
      return failed(toolError(`invalid view range [${a}, ${b}] for ${rel}, which has ${lines.length} lines`));
    }
    first = a;
    last = b === -1 ? lines.length : b;
  }
  return {
    ok: true,
    output: numbered(lines.slice(first - 1, last), first),
    fingerprint: { [rel]: sha256Hex(bytes) },
  };
}

function list(env: ToolEnv, path: string, depth: number): Promise<ToolOutcome> {
  const { ctx, recorder } = env;
  const rel0 = toWorkspacePath(ctx.workspace.root, path);
  return recorder.call('list', { path: rel0, depth }, async () => {
    const allowed = await checkPolicy(env.gate, env.policy, { kind: 'read', path: rel0 });
    if (!allowed.ok) return failed(allowed.error);
    if (allowed.value.kind === 'run') throw new Error('unreachable');
    const stat = await ctx.workspace.stat(allowed.value.rel);
    if (stat?.kind !== 'directory') return failed(toolError(`${allowed.value.rel} is not a directory`));
    const entries = await listing(env, allowed.value.rel, Math.max(1, Math.min(depth, 6)));
    const capped = entries.length >= MAX_LIST_ENTRIES ? `\n(listing capped at ${MAX_LIST_ENTRIES} entries)` : '';
    return { ok: true, output: entries.join('\n') + capped };
  });
}

function search(env: ToolEnv, pattern: string, glob: string | undefined): Promise<ToolOutcome> {
  return env.recorder.call('search', { pattern, glob: glob ?? null }, async () => {
    if (typeof pattern !== 'string' || pattern.length === 0 || pattern.length > 500) return failed(toolError('pattern must be 1–500 characters'));
    const scan = new SearchScan(env, new BoundedLineMatcher(compileSearch(pattern), SEARCH_TIME_MS), glob ? picomatch(glob, { dot: true }) : () => true);
    await scan.walk('.');
    scan.flush();
    return searchReport(env, pattern, scan);
  });
}

/** One search's walk over the readable files. Files wait in a batch and are matched together (see boundedRegex.ts), under one time budget. */
class SearchScan {
  readonly hits: string[] = [];
  files = 0;
  oversized = 0;
  timedOut = false;
  private batch: { path: string; lines: string[] }[] = [];
  private batchChars = 0;
  private readonly env: ToolEnv;
  private readonly matcher: BoundedLineMatcher;
  private readonly inGlob: (path: string) => boolean;

  constructor(env: ToolEnv, matcher: BoundedLineMatcher, inGlob: (path: string) => boolean) {
    this.env = env;
    this.matcher = matcher;
    this.inGlob = inGlob;
  }

  async walk(dir: string): Promise<void> {
    const { ctx, policy } = this.env;
    for (const e of await ctx.workspace.readDir(dir)) {
      if (this.timedOut || this.hits.length >= MAX_SEARCH_MATCHES || this.files >= MAX_SEARCH_FILES) return;
      const child = dir === '.' ? e.name : `${dir}/${e.name}`;
      if (e.kind === 'directory') {
        if (!SKIP_DIRS.has(e.name) && isReadable(policy, child, true)) await this.walk(child);
        continue;
      }
      if (e.kind !== 'file' || !this.inGlob(child) || !isReadable(policy, child, false)) continue;
      // Sized before it is read: one huge file (a log, a data dump) must not fail or bloat the whole search.
      const size = (await ctx.workspace.stat(child))?.size ?? 0;
      if (size > ctx.settings.maxFileBytes) {
        this.oversized++;
        continue;
      }
      this.files++;
      const decoded = decodeText(await ctx.workspace.readFile(child), ctx.settings.maxFileBytes);
      if (!decoded.ok) continue;
      const lines = decoded.value.text.split(/\r?\n/).map((l) => l.slice(0, MAX_SEARCH_LINE));
      this.batch.push({ path: child, lines });
      this.batchChars += decoded.value.text.length;
      if (this.batchChars >= SEARCH_BATCH_CHARS) this.flush();
    }
  }

  /** Matches the files waiting in the batch. */
  flush(): void {
    const batch = this.batch;
    if (batch.length === 0 || this.timedOut) return;
    const out = this.matcher.match(
      batch.map((b) => b.lines),
      MAX_SEARCH_MATCHES - this.hits.length,
    );
    if (!out.ok) this.timedOut = true;
    else for (const h of out.value) this.hits.push(`${batch[h.file]!.path}:${h.line + 1}: ${batch[h.file]!.lines[h.line]!.trim().slice(0, 200)}`);
    this.batch = [];
    this.batchChars = 0;
  }
}

/** What the model is told: the hits and what limited them, or that the pattern ran out of time. */
function searchReport(env: ToolEnv, pattern: string, scan: SearchScan): CallResult {
  const { hits, files, oversized } = scan;
  if (scan.timedOut) {
    return failed(
      toolError(
        `the search pattern ${JSON.stringify(pattern)} ran longer than ${SEARCH_TIME_MS} ms and was stopped (catastrophic backtracking?)`,
        'use a simpler pattern: no nested or overlapping quantifiers such as (a+)+ or (a|a?)+, or search for a literal string',
      ),
    );
  }
  const note =
    (hits.length >= MAX_SEARCH_MATCHES ? `\n(stopped at ${MAX_SEARCH_MATCHES} matches)` : '') +
    (oversized > 0 ? `\n(skipped ${oversized} file${oversized === 1 ? '' : 's'} over the size limit of ${env.ctx.settings.maxFileBytes} bytes)` : '');
  return { ok: true, output: hits.length ? hits.join('\n') + note : `no matches for ${JSON.stringify(pattern)} in ${files} readable files${note}` };
}

function fetchToolResult(env: ToolEnv, toolCallId: string): Promise<ToolOutcome> {
  return env.recorder.call('fetch_tool_result', { toolCallId }, async () => {
    const record = env.ctx.toolCalls.get(toolCallId);
    if (!record) return failed(toolError(`no tool call with id ${toolCallId} in this mission`));
    return { ok: true, output: record.output };
  });
}
