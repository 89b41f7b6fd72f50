/**
 * The task format, read from disk (a trust boundary: a suite may be hand-written, held out, or broken).
 * A task is a folder:
 *   task.md     what the user would type (the mission's task, verbatim)
 *   repo/       the starting tree; the harness makes a git repository of a fresh copy for every run
 *   check       run after the mission, outside the agent's reach: exit 0 = the task is done
 *   untouched   optional: globs (one a line, # comments) of files that must not change
 *   meta.json   optional: { language, kind, difficulty, commands?, packages?, checkTimeoutSeconds? }
 * Anything else in the folder (hidden tests, fixtures) stays there: never copied into the workspace, never
 * named to the model. The check finds it through EVAL_TASK_DIR.
 *
 * Loading never throws: a malformed task is a value naming what is wrong, so one bad task costs its own
 * runs, not the suite.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { z } from 'zod';
import { StepIdSchema } from '../../core/contracts/plan';
import { errorText } from '../../core/primitives/errorText';
import { err, ok, type Result } from '../../core/contracts/result';

/** Free text for the report; a number (difficulty 2) is read as its text. */
const Label = z.union([z.string().min(1), z.number()]).transform(String);

/** Unknown keys are ignored (a suite may carry its own notes); known ones must be what they say. */
const TaskMetaSchema = z.object({
  /** javascript, typescript, python… (free text: the report groups by it). */
  language: Label.default('unknown'),
  /** bugfix, feature, refactor, command, parallel, replan… (free text). */
  kind: Label.default('unknown'),
  difficulty: Label.default('unknown'),
  /** Commands the direct baseline may run besides the suite's toolbox (allowlist patterns, as in a plan). */
  commands: z.array(z.string().min(1)).default([]),
  /**
   * npm packages the harness copies from its own node_modules into the workspace's (tasks get no network):
   * e.g. ["typescript"] for a task whose build runs tsc.
   */
  packages: z.array(z.string().regex(/^(@[a-z0-9._-]+\/)?[a-z0-9._-]+$/, 'an npm package name')).default([]),
  /** The check's time limit (default 300 s). */
  checkTimeoutSeconds: z.number().positive().max(3600).default(300),
});

type TaskMeta = z.infer<typeof TaskMetaSchema>;

export interface Task {
  id: string;
  /** Absolute path of the task folder. */
  dir: string;
  text: string;
  repo: string;
  check: string;
  untouched: string[];
  meta: TaskMeta;
}

/** What the report shows of a task (and a malformed one shows as far as it could be read). */
export interface TaskInfo {
  id: string;
  language: string;
  kind: string;
  difficulty: string;
}

/** A task folder that cannot be run: its id and folder, and what is wrong with it. */
interface MalformedTask {
  id: string;
  dir: string;
  message: string;
}

export type TaskLoad = Result<Task, MalformedTask>;

const isDir = (p: string): boolean => existsSync(p) && statSync(p).isDirectory();
const isFile = (p: string): boolean => existsSync(p) && statSync(p).isFile();

/**
 * Globs of an `untouched` file: one a line; blank lines and # comments skipped; a leading "./" dropped;
 * no absolute or ".." paths. A folder named (`tests`, `tests/`) stands for everything in it too.
 */
function parseUntouched(text: string): { globs: string[]; problems: string[] } {
  const globs: string[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim().replace(/^(\.\/)+/, '');
    if (line === '' || line.startsWith('#')) return;
    if (line.startsWith('/') || line.split('/').includes('..'))
      problems.push(`untouched line ${i + 1}: "${line}" must be relative to repo/ and stay inside it`);
    else {
      const bare = line.replace(/\/+$/, '');
      globs.push(...(line.endsWith('/') ? [`${bare}/**`] : [line, `${bare}/**`]));
    }
  });
  return { globs: [...new Set(globs)], problems };
}

export function loadTask(dirPath: string): TaskLoad {
  const dir = resolve(dirPath);
  const id = basename(dir);
  const bad = (message: string): TaskLoad => err({ id, dir, message });
  if (!StepIdSchema.safeParse(id).success) return bad(`the folder name "${id}" is not a usable task id (letters, digits, "_", "." and "-")`);
  const problems: string[] = [];
  const textPath = join(dir, 'task.md');
  const text = isFile(textPath) ? readFileSync(textPath, 'utf8').trim() : '';
  if (!isFile(textPath)) problems.push('task.md is missing');
  else if (text === '') problems.push('task.md is empty');
  const repo = join(dir, 'repo');
  if (!isDir(repo)) problems.push('repo/ is missing (the starting tree)');
  const check = join(dir, 'check');
  if (!isFile(check)) problems.push('check is missing (the command that decides whether the task is done)');
  let untouched: string[] = [];
  const untouchedPath = join(dir, 'untouched');
  if (existsSync(untouchedPath)) {
    const parsed = parseUntouched(readFileSync(untouchedPath, 'utf8'));
    untouched = parsed.globs;
    problems.push(...parsed.problems);
  }
  let meta: TaskMeta = TaskMetaSchema.parse({});
  const metaPath = join(dir, 'meta.json');
  if (existsSync(metaPath)) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(metaPath, 'utf8'));
    } catch (error) {
      problems.push(`meta.json is not JSON: ${errorText(error)}`);
    }
    if (raw !== undefined) {
      const parsed = TaskMetaSchema.safeParse(raw);
      if (parsed.success) meta = parsed.data;
      else problems.push(...parsed.error.issues.map((i) => `meta.json ${i.path.join('.') || '(root)'}: ${i.message}`));
    }
  }
  if (problems.length > 0) return bad(problems.join('; '));
  return ok({ id, dir, text, repo, check, untouched, meta });
}

/** The task folders of a suite, by id: each folder holding task.md, repo/ or check (a folder holding task.md itself is a suite of one). */
export function discoverTasks(suiteDir: string): string[] {
  const root = resolve(suiteDir);
  const looksLikeTask = (d: string): boolean => ['task.md', 'repo', 'check'].some((n) => existsSync(join(d, n)));
  if (looksLikeTask(root)) return [root];
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && looksLikeTask(join(root, e.name)))
    .map((e) => join(root, e.name))
    .sort((a, b) => (basename(a) < basename(b) ? -1 : basename(a) > basename(b) ? 1 : 0));
}

export function taskInfo(load: TaskLoad): TaskInfo {
  if (load.ok) return { id: load.value.id, language: load.value.meta.language, kind: load.value.meta.kind, difficulty: load.value.meta.difficulty };
  return { id: load.error.id, language: 'unknown', kind: 'unknown', difficulty: 'unknown' };
}

/**
 * The I-th of N parts of a suite: tasks sorted by id, dealt round-robin. Deterministic (the same suite
 * always splits the same way, on any machine) and balanced to within one task.
 */
export function shardOf<T extends { id: string }>(tasks: readonly T[], index: number, count: number): T[] {
  return [...tasks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).filter((_, i) => i % count === index - 1);
}
