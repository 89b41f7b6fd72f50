/**
 * `run --plan FILE`: the plan document read, validated and checked against the workspace before anything
 * else happens — before the model setup, so a document that does not read costs no model call. Then the
 * mission runs the document's plan (no planner call for its first version) under the usual approval flags.
 *
 * What is checked, in order: the file reads; the document reads and its plan passes the engine's validation
 * (each problem printed as FILE:LINE: message, exit 2); its hash (a mismatch means a person edited it, which
 * is what documents are for: said, then run as edited); its base commit against the workspace's HEAD (a
 * difference is said and asked on a terminal; refused without one unless --allow-other-base).
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { PlanInput } from '../core/contracts/plan';
import { err, ok, type Result } from '../core/contracts/result';
import { readPlanDocument } from '../core/plan/document/read';
import { hashMatches } from '../core/plan/document/meta';
import { errorText } from '../core/primitives/errorText';
import { workspaceCommit } from './baseCommit';
import type { CliIO } from './cliMission';
import { terminalSafe } from './terminalText';

export interface RunPlanFlags {
  workspace: string;
  planFile: string;
  allowOtherBase: boolean;
  maxPlanSteps?: number;
}

/** The plan to run and its task, or the exit code after the reason was printed. */
export type PlanForRun = Result<{ plan: PlanInput; task: string }, number>;

const USAGE_EXIT = 2;

export async function planForRun(flags: RunPlanFlags, io: CliIO): Promise<PlanForRun> {
  const say = (line: string): void => void io.stderr.write(`${terminalSafe(line)}\n`);
  let text: string;
  try {
    text = readFileSync(resolve(flags.planFile), 'utf8');
  } catch (error) {
    say(`error: cannot read the plan document ${flags.planFile}: ${errorText(error)}`);
    return err(USAGE_EXIT);
  }
  const read = readPlanDocument(text, {
    ...(flags.maxPlanSteps !== undefined ? { maxSteps: flags.maxPlanSteps } : {}),
    maxStepsName: '--max-plan-steps',
  });
  if (!read.ok) {
    for (const e of read.error) say(`${flags.planFile}:${e.line}: ${e.message}`);
    say(`error: the plan document ${flags.planFile} does not read (${read.error.length} problem(s)); nothing was run`);
    return err(USAGE_EXIT);
  }
  const { plan, meta } = read.value;
  const edited = meta.hash !== '' && !hashMatches(plan, meta);
  if (meta.hash === '') say(`· ${flags.planFile} states no hash (written by hand?): running the plan as it reads`);
  else if (edited) say(`· ${flags.planFile} was edited since it was written (its hash no longer matches): running the plan as edited`);
  const base = await checkBase(meta.baseCommit, resolve(flags.workspace), flags.allowOtherBase, io, say);
  if (!base) return err(USAGE_EXIT);
  say(`· plan document ${flags.planFile}: v${plan.version}, ${plan.steps.length} step(s) (${plan.steps.map((s) => s.id).join(', ')})`);
  const reason = `from the plan document ${basename(flags.planFile)}${edited ? ', edited' : ''} (v${plan.version}: ${plan.reason})`;
  return ok({ plan: { ...plan, reason }, task: meta.task });
}

/** True when the plan may run on the workspace's commit (the same one, none recorded, or allowed). */
async function checkBase(planned: string | undefined, root: string, allowed: boolean, io: CliIO, say: (line: string) => void): Promise<boolean> {
  if (planned === undefined) return true;
  const current = workspaceCommit(root);
  if (current === planned) return true;
  const where = current === undefined ? 'the workspace has no git commit' : `the workspace is at ${current.slice(0, 12)}`;
  const message = `the plan was made on commit ${planned.slice(0, 12)}, and ${where}: its steps may not fit the code as it is now`;
  if (allowed) {
    say(`· ${message} (--allow-other-base: running it anyway)`);
    return true;
  }
  if (!(io.stdin as { isTTY?: boolean }).isTTY) {
    say(`error: ${message}. Pass --allow-other-base to run it anyway, or plan again on this commit.`);
    return false;
  }
  io.stderr.write(terminalSafe(`${message}.\nRun it on this commit anyway? [y/N] `));
  const rl = createInterface({ input: io.stdin, terminal: false });
  const answer = await new Promise<string | undefined>((done) => {
    rl.once('line', done);
    rl.once('close', () => done(undefined));
  });
  rl.close();
  if (answer !== undefined && /^(y|yes)$/i.test(answer.trim())) return true;
  say('· not run: the plan was made on another commit');
  return false;
}
