/**
 * Runs one mission through the real CLI binary (`node dist/cli.js run … --approve all`), with the
 * scriptable Messages server playing planner and executors, in a scene (see scene.ts). The CLI gets the
 * scene's HOME, its XDG_RUNTIME_DIR and the API key canary in its environment, exactly as a user's shell
 * would give them.
 *
 * Which CLI and how it is spawned: test/support/cliBinary.ts. PE_ESCAPE_CLI names another cli.js to test.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath, spawnCli, type CliExit } from '../../support/cliBinary';
import { wirePlan, wireStep, type AuthorityInput, type EvidenceCheckInput, type WirePlan } from '../../support/fixtures';
import { startMessagesServer } from '../../support/messages-server/server';
import type { RecordedRequest, ScenarioInput } from '../../support/messages-server/scenario';
import { done, type ToolUse } from '../../support/messages-server/toolUses';
import { toolResultsOf } from '../../support/messages-server/toolResults';
import type { Canaries, Scene } from './scene';

/** The CLI under test: PE_ESCAPE_CLI runs the suite against another build (e.g. one made from main, to see what the sandbox changed). */
const escapeCli = (): Promise<string> => cliPath(process.env.PE_ESCAPE_CLI);

export { createFile, replace, sh } from '../../support/messages-server/toolUses';

interface StepScript {
  id: string;
  /** The step's authority as the user approved it. */
  authority: AuthorityInput & Required<Pick<AuthorityInput, 'edit' | 'commands'>>;
  /** Each entry is one executor turn: the tool calls it makes. `report_result` is appended. */
  turns: ToolUse[][];
  required?: boolean;
  evidence?: EvidenceCheckInput[];
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

function planFor(steps: StepScript[]): WirePlan {
  return wirePlan(
    steps.map((s) =>
      wireStep(s.id, {
        kind: s.authority.edit.length > 0 ? 'edit' : 'command',
        required: s.required ?? false,
        dependsOn: s.dependsOn ?? [],
        authority: { read: s.authority.read ?? ['**'], edit: s.authority.edit, commands: s.authority.commands, network: s.authority.network ?? false },
        evidence: {
          checks: (s.evidence ?? [{ kind: 'files_exist', paths: ['package.json'] }]).map((c) =>
            c.kind === 'command'
              ? { kind: 'command', command: c.command, expectExitCode: c.expectExitCode ?? 0, expectOutputIncludes: c.expectOutputIncludes ?? '' }
              : c,
          ),
          description: 'the step ran',
        },
      }),
    ),
    { goal: 'escape suite mission' },
  );
}

/** `cli replay --trace TRACE --workspace WS` in the scene's environment (no model: answers come from the trace). */
export async function replayCli(scene: Scene, trace: string, workspace: string): Promise<CliExit> {
  const env = { PATH: process.env.PATH ?? '', HOME: scene.home, XDG_RUNTIME_DIR: scene.run, LANG: 'C.UTF-8' };
  return spawnCli(await escapeCli(), ['replay', '--trace', trace, '--workspace', workspace], env);
}

/** What a mission needs of a scene: where the workspace, home, runtime folder and trace live, and the API key. */
export type CliScene = Pick<Scene, 'root' | 'ws' | 'home' | 'run'> & { canaries: Pick<Canaries, 'apiKey'> };

export async function runCliMission(scene: CliScene, o: CliMissionOptions): Promise<CliMission> {
  const scenario: ScenarioInput = {
    name: 'escape',
    rules: [
      { name: 'plan', match: { role: 'planner' }, turns: [{ structured: planFor(o.steps) }] },
      ...o.steps.map((s) => ({
        name: s.id,
        match: { role: 'executor' as const, firstUserIncludes: `# Step ${s.id}:` },
        turns: [...s.turns.map((t) => ({ toolUse: t })), done(`step ${s.id} done`)],
      })),
    ],
  };
  const server = await startMessagesServer({ scenario });
  try {
    const cli = await escapeCli();
    const trace = join(scene.root, 'trace.jsonl');
    const args = ['run', '--workspace', scene.ws, '--task', 'escape suite task', '--approve', 'all', '--json', '--trace', trace, ...(o.args ?? [])];
    const env = {
      PATH: o.path ?? process.env.PATH ?? '',
      HOME: scene.home,
      XDG_RUNTIME_DIR: scene.run,
      LANG: 'C.UTF-8',
      ANTHROPIC_API_KEY: scene.canaries.apiKey,
      ANTHROPIC_BASE_URL: server.url,
      ...o.env,
    };
    const { code, stdout, stderr } = await spawnCli(cli, args, env, o);
    const traceText = existsSync(trace) ? readFileSync(trace, 'utf8') : '';
    const events = traceText
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as CliMission['events'][number]);
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
