/**
 * A hooks case's world and its mission through the real CLI: a fresh scene per case under
 * test-results/hooks/ (not /tmp: the sandbox hides the temporary folder's neighbours, and a case must see
 * that a hook's write outside the workspace did not land) —
 *
 *   case-N/home/    the CLI's HOME (the user's ~/.claude/settings.json goes here)
 *   case-N/ws/      the workspace: package.json, src/, and whatever hook files the case writes
 *   case-N/run/     XDG_RUNTIME_DIR
 *   case-N/marks/   where user hooks (unconfined) leave marker files for the test to read
 *
 * The scriptable Messages server plays planner and executors; each executor turn is scripted, so a case
 * can report twice (a Stop hook that blocks once) or make a corrected edit after a blocked one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { cliPath, spawnCli } from '../../support/cliBinary';
import { wirePlan, wireStep } from '../../support/fixtures';
import { startMessagesServer } from '../../support/messages-server/server';
import type { RecordedRequest, Reply, ScenarioInput } from '../../support/messages-server/scenario';
import { toolResultsOf, type SentToolResult } from '../../support/messages-server/toolResults';
import type { ToolUse } from '../../support/messages-server/toolUses';

const REPO = resolve(__dirname, '../../..');

export interface HookScene {
  root: string;
  home: string;
  ws: string;
  run: string;
  marks: string;
}

export function put(root: string, rel: string, content: string, mode = 0o644): void {
  const p = join(root, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, content, { mode });
}

/** A workspace of the size a hook case needs: package.json, a source file, a git repository. */
function createScene(base: string, n: number): HookScene {
  const root = join(base, `case-${n}`);
  const scene = { root, home: join(root, 'home'), ws: join(root, 'ws'), run: join(root, 'run'), marks: join(root, 'marks') };
  for (const d of [scene.home, scene.ws, scene.run, scene.marks]) mkdirSync(d, { recursive: true });
  put(scene.ws, 'package.json', '{ "name": "hooked", "version": "1.0.0" }\n');
  put(scene.ws, 'src/app.js', 'exports.answer = 41;\n');
  execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q'], { cwd: scene.ws });
  return scene;
}

/** A base folder for one test file's scenes, removed after it (PE_HOOKS_KEEP=1 keeps it). */
export function useScenes(): { scene(): HookScene } {
  let base = '';
  let n = 0;
  before(() => {
    mkdirSync(join(REPO, 'test-results'), { recursive: true });
    base = mkdtempSync(join(REPO, 'test-results', 'hooks-'));
  });
  after(() => {
    if (base && process.env.PE_HOOKS_KEEP !== '1') rmSync(base, { recursive: true, force: true });
  });
  return { scene: () => createScene(base, ++n) };
}

/** `.claude/settings.json`-shaped JSON: event → matcher groups of command hooks. */
export function settings(hooks: Record<string, { matcher?: string; hooks: { command: string; timeout?: number; failClosed?: boolean }[] }[]>): string {
  const shaped = Object.fromEntries(
    Object.entries(hooks).map(([event, groups]) => [
      event,
      groups.map((g) => ({ ...(g.matcher !== undefined ? { matcher: g.matcher } : {}), hooks: g.hooks.map((h) => ({ type: 'command', ...h })) })),
    ]),
  );
  return `${JSON.stringify({ hooks: shaped }, null, 2)}\n`;
}

interface StepScript {
  id: string;
  edit: string[];
  commands?: string[];
  /** Each entry one executor turn: its tool calls (a turn of only `done()` is the report). */
  turns: Reply[];
  /** Files the step's evidence says must exist (default package.json). */
  exists?: string[];
}

export const use = (...calls: ToolUse[]): Reply => ({ toolUse: calls });

export interface HookMission {
  code: number | null;
  stdout: string;
  stderr: string;
  requests: RecordedRequest[];
  toolResults: Map<string, SentToolResult>;
  events: { type: string; [key: string]: unknown }[];
  /** The `hook_run` records, in order. */
  hookRuns: {
    event: string;
    source: string;
    command: string;
    exit: number | null;
    decision: string;
    timedOut: boolean;
    reason?: string;
    warning?: string;
    tool?: string;
    writes: string[];
  }[];
}

export interface HookMissionOptions {
  steps: StepScript[];
  args?: string[];
  approve?: 'ask' | 'plan' | 'all';
  stdin?: string;
  timeoutMs?: number;
}

function scenario(steps: StepScript[]): ScenarioInput {
  const plan = wirePlan(
    steps.map((s) =>
      wireStep(s.id, {
        kind: 'edit',
        authority: { read: ['**'], edit: s.edit, commands: s.commands ?? [], network: false, mcp: [] },
        evidence: { checks: [{ kind: 'files_exist', paths: s.exists ?? ['package.json'] }], description: 'the step ran' },
      }),
    ),
    { goal: 'hooks case' },
  );
  return {
    name: 'hooks',
    rules: [
      { name: 'plan', match: { role: 'planner' }, turns: [{ structured: plan }] },
      ...steps.map((s) => ({ name: s.id, match: { role: 'executor' as const, firstUserIncludes: `# Step ${s.id}:` }, turns: s.turns })),
    ],
  };
}

export async function runHookMission(scene: HookScene, o: HookMissionOptions): Promise<HookMission> {
  const server = await startMessagesServer({ scenario: scenario(o.steps) });
  try {
    const trace = join(scene.root, 'trace.jsonl');
    const args = ['run', '--workspace', scene.ws, '--task', 'hooks case task', '--approve', o.approve ?? 'all', '--json', '--trace', trace, ...(o.args ?? [])];
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: scene.home,
      XDG_RUNTIME_DIR: scene.run,
      LANG: 'C.UTF-8',
      ANTHROPIC_API_KEY: 'sk-ant-hooks-test',
      ANTHROPIC_BASE_URL: server.url,
    };
    const { code, stdout, stderr } = await spawnCli(await cliPath(), args, env, {
      ...(o.stdin !== undefined ? { stdin: o.stdin } : {}),
      timeoutMs: o.timeoutMs ?? 120_000,
    });
    const events = existsSync(trace)
      ? readFileSync(trace, 'utf8')
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l) as HookMission['events'][number])
      : [];
    const hookRuns = events.filter((e) => e.type === 'hook_run').map((e) => e.run as HookMission['hookRuns'][number]);
    const requests = [...server.requests];
    return { code, stdout, stderr, requests, toolResults: toolResultsOf(requests), events, hookRuns };
  } finally {
    await server.close();
  }
}

/** Everything a mission's requests said to the model, as one string (for "did X reach the model"). */
export function sentText(m: HookMission, role?: string): string {
  return m.requests
    .filter((r) => role === undefined || r.role === role)
    .map((r) => JSON.stringify(r.body.messages ?? []))
    .join('\n');
}

/** What the story of a failed case is: the CLI's stderr and the hook runs. */
export function story(m: HookMission): string {
  return `\n--- exit ${m.code}\n--- stderr:\n${m.stderr.slice(-4000)}\n--- hook runs:\n${JSON.stringify(m.hookRuns, null, 1).slice(0, 4000)}`;
}
