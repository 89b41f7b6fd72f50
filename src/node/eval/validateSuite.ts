/**
 * `eval validate`: proves a suite's tasks are real before anyone spends a model on them. Each task must
 * load; its check must FAIL on the starting tree (else the task measures nothing); and, given a folder of
 * reference solutions (`<task id>.patch`, kept out of the suite so no agent can read them), the check must
 * PASS once the solution is applied with `git apply` (to the same copy, after the first check), without
 * changing an untouched file.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runHiddenCheck, type CheckResult } from './hiddenCheck';
import { discoverTasks, loadTask } from './taskSpec';
import { changedFiles, fingerprint, prepareWorkspace } from './taskWorkspace';

export interface TaskValidation {
  id: string;
  ok: boolean;
  problems: string[];
  before?: CheckResult;
  after?: CheckResult;
}

function gitApply(ws: string, patch: string): Promise<string | undefined> {
  return new Promise((done) => {
    execFile('git', ['apply', '--whitespace=nowarn', patch], { cwd: ws }, (error, _out, stderr) => done(error ? stderr.trim() || error.message : undefined));
  });
}

export async function validateTask(dir: string, solutions?: string): Promise<TaskValidation> {
  const load = loadTask(dir);
  if (!load.ok) return { id: load.error.id, ok: false, problems: [load.error.message] };
  const task = load.value;
  const problems: string[] = [];
  const patch = solutions === undefined ? undefined : resolve(solutions, `${task.id}.patch`);
  if (patch !== undefined && !existsSync(patch)) problems.push(`no reference solution ${patch}`);
  const scratch = mkdtempSync(join(tmpdir(), 'pe-eval-validate-'));
  try {
    const ws = join(scratch, 'ws');
    const skip = await prepareWorkspace(task, ws, join(scratch, 'git-home'));
    const before = await runHiddenCheck(task, ws, scratch);
    if (before.passed) problems.push('the check passes on the starting tree: the task measures nothing');
    if (patch === undefined || !existsSync(patch)) return { id: task.id, ok: problems.length === 0, problems, before };
    // The same copy, solved: the check must clean up after itself (a check is run after a mission, once).
    const start = fingerprint(ws, task.untouched, skip);
    const failed = await gitApply(ws, patch);
    if (failed) problems.push(`the reference solution does not apply: ${failed}`);
    const touched = changedFiles(start, fingerprint(ws, task.untouched, skip));
    if (touched.length > 0) problems.push(`the reference solution changes untouched files: ${touched.join(', ')}`);
    const after = await runHiddenCheck(task, ws, scratch);
    if (!after.passed)
      problems.push(`the check fails with the reference solution (exit ${after.exitCode ?? after.signal ?? '?'}): ${after.outputTail.slice(-600)}`);
    return { id: task.id, ok: problems.length === 0, problems, before, after };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Every task of the suite, `concurrency` at a time, in suite order. */
export async function validateSuite(suiteDir: string, solutions?: string, concurrency = 1): Promise<TaskValidation[]> {
  const dirs = discoverTasks(suiteDir);
  const out: TaskValidation[] = new Array(dirs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < dirs.length; i = next++) out[i] = await validateTask(dirs[i]!, solutions);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, dirs.length)) }, worker));
  return out;
}
