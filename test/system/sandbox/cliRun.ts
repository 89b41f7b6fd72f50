/**
 * Runs one mission through the real CLI binary (`node dist/cli.js run … --approve all`), with the
 * scriptable Messages server playing planner and executors, in a scene (see scene.ts). The CLI gets the
 * scene's HOME, its XDG_RUNTIME_DIR and the API key canary in its environment, exactly as a user's shell
 * would give them.
 *
 * dist/cli.js is used when it is newer than every source file (after `npm run build`, as `npm test` does);
 * otherwise the CLI is bundled once per test process, so a stale build never tests old code.
 * PE_ESCAPE_CLI names another cli.js to test.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { draftStep } from '../../support/planDraft';
import { startMessagesServer } from '../../support/messages-server/server';
import type { RecordedRequest, Reply, ScenarioInput } from '../../support/messages-server/scenario';
import { toolResultsOf } from '../../support/messages-server/toolResults';
import type { Canaries, Scene } from './scene';

const REPO = resolve(__dirname, '../../..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

let bundled: Promise<string> | undefined;

/**
 * The CLI to test: dist/cli.js when fresh, else a bundle made once per test process (into its own temp
 * folder, removed when the process exits: several test files share it).
 */
export function cliPath(): Promise<string> {
  // PE_ESCAPE_CLI runs the suite against another build (e.g. one made from main, to see what the sandbox changed).
  if (process.env.PE_ESCAPE_CLI) return Promise.resolve(resolve(process.env.PE_ESCAPE_CLI));
  const dist = join(REPO, 'dist', 'cli.js');
  if (existsSync(dist) && statSync(dist).mtimeMs >= newestMtime(join(REPO, 'src'))) return Promise.resolve(dist);
  bundled ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pe-escape-cli-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const out = join(dir, 'cli.js');
    await build({ entryPoints: [join(REPO, 'src/node/cli.ts')], bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: out, logLevel: 'silent' });
    return out;
  })();
  return bundled;
}

export type ToolUse = { name: string; input: unknown; id?: string };

export const createFile = (id: string, path: string, text: string): ToolUse => ({ id, name: 'str_replace_based_edit_tool', input: { command: 'create', path, file_text: text } });
export const replace = (id: string, path: string, oldText: string, newText: string): ToolUse => ({ id, name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path, old_str: oldText, new_str: newText } });
export const sh = (id: string, command: string): ToolUse => ({ id, name: 'bash', input: { command } });
export const done = (output = 'done'): Reply => ({ toolUse: [{ name: 'report_result', input: { status: 'succeeded', output, evidence: [{ description: output }] } }] });

export interface StepScript {
  id: string;
  /** The step's authority as the user approved it. */
  authority: { read?: string[]; edit: string[]; commands: string[]; network?: boolean };
  /** Each entry is one executor turn: the tool calls it makes. `report_result` is appended. */
  turns: ToolUse[][];
  required?: boolean;
  evidence?: Record<string, unknown>[];
  dependsOn?: string[];
}

export interface CliMissionOptions {
  steps: StepScript[];
  /** Extra CLI arguments (e.g. `--sandbox required`). */
  args?: string[];
  /** Replaces the CLI's PATH (to take bwrap away). */
  path?: string;
  stdin?: string;
  /** Extra environment for the CLI (e.g. TMPDIR). */
  env?: Record<string, string>;
  /** Polled every 50 ms while the CLI runs; the first time it holds, the CLI gets SIGINT (Ctrl-C). */
  interruptWhen?: () => boolean;
  timeoutMs?: number;
}

export interface CliMission {
  code: number | null;
  stdout: string;
  stderr: string;
  requests: RecordedRequest[];
  /** Every tool_result the executor model was sent, by tool_use id. */
  toolResults: Map<string, { content: string; isError: boolean }>;
  /** The trace file the CLI wrote (raw text and parsed events). */
  traceText: string;
  events: { type: string; [key: string]: unknown }[];
  /** The `--json` report, when the CLI printed one. */
  report: { outcome?: string; succeeded?: string[]; failed?: string[] } | undefined;
}


export function planFor(steps: StepScript[]): Record<string, unknown> {
  return {
    goal: 'escape suite mission',
    assumptions: [],
    constraints: [],
    direct: false,
    reason: 'initial plan',
    steps: steps.map((s) =>
      draftStep(s.id, {
        kind: s.authority.edit.length > 0 ? 'edit' : 'command',
        required: s.required ?? false,
        dependsOn: s.dependsOn ?? [],
        authority: { read: s.authority.read ?? ['**'], edit: s.authority.edit, commands: s.authority.commands, network: s.authority.network ?? false },
        evidence: { checks: (s.evidence ?? [{ kind: 'files_exist', paths: ['package.json'] }]).map((c) => (c.kind === 'command' ? { expectOutputIncludes: '', ...c } : c)), description: 'the step ran' },
      }),
    ),
  };
}

export interface CliExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI (node + args) in its own process group; kills the group at the deadline. */
function spawnCli(args: string[], env: Record<string, string>, o: Pick<CliMissionOptions, 'stdin' | 'timeoutMs' | 'interruptWhen'>): Promise<CliExit> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdin.on('error', () => undefined);
    child.stdin.end(o.stdin ?? '');
    const timer = setTimeout(() => {
      err += '\n[escape suite: the CLI timed out and was killed]\n';
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        // already gone
      }
    }, o.timeoutMs ?? 60_000);
    const poll = o.interruptWhen
      ? setInterval(() => {
          if (!o.interruptWhen?.()) return;
          clearInterval(poll);
          child.kill('SIGINT');
        }, 50)
      : undefined;
    child.on('close', (c) => {
      clearTimeout(timer);
      clearInterval(poll);
      done({ code: c, stdout: out, stderr: err });
    });
  });
}

/** `cli replay --trace TRACE --workspace WS` in the scene's environment (no model: answers come from the trace). */
export async function replayCli(scene: Scene, trace: string, workspace: string): Promise<CliExit> {
  const env = { PATH: process.env.PATH ?? '', HOME: scene.home, XDG_RUNTIME_DIR: scene.run, LANG: 'C.UTF-8' };
  return spawnCli([await cliPath(), 'replay', '--trace', trace, '--workspace', workspace], env, {});
}

/** What a mission needs of a scene: where the workspace, home, runtime folder and trace live, and the API key. */
export type CliScene = Pick<Scene, 'root' | 'ws' | 'home' | 'run'> & { canaries: Pick<Canaries, 'apiKey'> };

export async function runCliMission(scene: CliScene, o: CliMissionOptions): Promise<CliMission> {
  const scenario: ScenarioInput = {
    name: 'escape',
    rules: [
      { name: 'plan', match: { role: 'planner' }, turns: [{ structured: planFor(o.steps) }] },
      ...o.steps.map((s) => ({ name: s.id, match: { role: 'executor' as const, firstUserIncludes: `# Step ${s.id}:` }, turns: [...s.turns.map((t) => ({ toolUse: t })), done(`step ${s.id} done`)] })),
    ],
  };
  const server = await startMessagesServer({ scenario });
  try {
    const cli = await cliPath();
    const trace = join(scene.root, 'trace.jsonl');
    const args = [cli, 'run', '--workspace', scene.ws, '--task', 'escape suite task', '--approve', 'all', '--json', '--trace', trace, ...(o.args ?? [])];
    const env = { PATH: o.path ?? process.env.PATH ?? '', HOME: scene.home, XDG_RUNTIME_DIR: scene.run, LANG: 'C.UTF-8', ANTHROPIC_API_KEY: scene.canaries.apiKey, ANTHROPIC_BASE_URL: server.url, ...o.env };
    const { code, stdout, stderr } = await spawnCli(args, env, o);
    const traceText = existsSync(trace) ? readFileSync(trace, 'utf8') : '';
    const events = traceText.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as CliMission['events'][number]);
    let report: CliMission['report'];
    try {
      report = (JSON.parse(stdout) as { report: CliMission['report'] }).report;
    } catch {
      report = undefined;
    }
    const requests = [...server.requests];
    return { code, stdout, stderr, requests, toolResults: toolResultsOf(requests), traceText, events, report };
  } finally {
    await server.close();
  }
}

/** The output the model saw for one tool call ("" when it never got one). */
export const seen = (m: CliMission, id: string): string => m.toolResults.get(id)?.content ?? '';
