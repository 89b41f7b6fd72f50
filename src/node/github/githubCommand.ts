/**
 * `plan-execute github`: one run on a GitHub Actions runner, decided by the event that started it.
 *
 * Order, and why: the event is read and classified first (most events are not for us: exit 0, no API call);
 * then the bot's identity (its own comments never trigger anything) and the sender's permission — both from
 * the API, never from the payload — and only then the model setup, so a refused sender costs no model call.
 * Exit codes: 0 done or nothing to do (also a refusal by permission), 1 a plan or mission that could not go
 * on (a comment says why), 2 a bad command line or environment.
 */
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { errorText } from '../../core/primitives/errorText';
import { cliModelSetup } from '../cliModels';
import { runHeadless, type CliIO, type HeadlessMission } from '../cliMission';
import { terminalSafe } from '../terminalText';
import { approveFlow } from './approveFlow';
import { canWrite, createGitHubApi, type GitHubApi } from './githubApi';
import { GITHUB_USAGE, parseGitHubArgs, type GitHubArgs } from './githubArgs';
import { readActionsEnv, type ActionsEnv } from './githubEnv';
import { parseTrigger } from './githubEvent';
import { planFlow } from './planFlow';

/** What every flow of one run shares. */
export interface GitHubRun {
  env: ActionsEnv;
  io: CliIO;
  api: GitHubApi;
  bot: string;
  tracePath: string;
  /** One mission in the checkout, with this run's models, caps, sandbox and trace. */
  mission(m: Pick<HeadlessMission, 'task' | 'approver' | 'approve'> & Partial<Pick<HeadlessMission, 'plan'>>): ReturnType<typeof runHeadless>;
  log(line: string): void;
}

export async function githubMain(argv: readonly string[], io: CliIO): Promise<number> {
  const args = parseGitHubArgs(argv);
  if (!args.ok) {
    io.stderr.write(`error: ${args.error}\n${GITHUB_USAGE}\n`);
    return 2;
  }
  if (args.value === 'help') {
    io.stdout.write(`${GITHUB_USAGE}\n`);
    return 0;
  }
  const env = readActionsEnv(io.env);
  if (!env.ok) {
    io.stderr.write(`error: ${env.error}\n`);
    return 2;
  }
  try {
    return await dispatch(args.value, env.value, io);
  } catch (error) {
    io.stderr.write(`error: ${terminalSafe(errorText(error))}\n`);
    return 1;
  }
}

async function dispatch(args: GitHubArgs, env: ActionsEnv, io: CliIO): Promise<number> {
  const log = (line: string): void => void io.stderr.write(`${terminalSafe(line)}\n`);
  let payload: unknown;
  try {
    payload = JSON.parse(readFileSync(env.eventPath, 'utf8'));
  } catch (error) {
    log(`error: cannot read the event payload at ${env.eventPath}: ${errorText(error)}`);
    return 2;
  }
  const trigger = parseTrigger(env.eventName, payload);
  if (!trigger.ok) {
    log(`error: ${trigger.error}`);
    return 2;
  }
  const t = trigger.value;
  if (t.kind === 'ignore') {
    log(`· nothing to do: ${t.reason}`);
    return 0;
  }
  const api = createGitHubApi(env);
  const bot = await api.botLogin();
  if (t.sender.login === bot) {
    log(`· nothing to do: the event is the bot's own (${bot})`);
    return 0;
  }
  const permission = await api.permission(t.sender.login);
  if (!canWrite(permission)) {
    if (t.kind === 'approve') {
      // Anyone may comment; only a writer's /approve means anything. Not worth a comment (that would let
      // anyone make the bot talk), and not a failure of this run.
      log(`· /approve by @${t.sender.login} ignored: their permission is ${permission}, below write`);
      return 0;
    }
    await api.comment(
      t.issue.number,
      `@${t.sender.login} Plan & Execute runs only for people with write access to this repository (yours: \`${permission}\`). Nothing was planned and no model was called. Someone with write access can add the \`plan-execute\` label or comment \`/plan-execute\`.`,
    );
    log(`· @${t.sender.login} (${permission}) may not start a mission: refused with a comment`);
    return 0;
  }
  const setup = cliModelSetup(args.models, io.env);
  if (!setup.ok) {
    log(`error: ${setup.error}`);
    return 2;
  }
  const tracePath = resolve(args.trace ?? join(env.runnerTemp ?? tmpdir(), 'plan-execute', 'trace.jsonl'));
  mkdirSync(dirname(tracePath), { recursive: true });
  if (io.env.GITHUB_OUTPUT) appendFileSync(io.env.GITHUB_OUTPUT, `trace=${tracePath}\n`);
  const run: GitHubRun = {
    env,
    io,
    api,
    bot,
    tracePath,
    log,
    mission: (m) =>
      runHeadless(
        {
          ...m,
          workspace: env.workspace,
          constraints: [],
          client: setup.value.client,
          models: setup.value.models,
          limits: args.limits,
          sandbox: args.sandbox,
          trace: tracePath,
          instructions: args.instructions,
          skipInstructions: args.skipInstructions,
          mcpConfigs: args.mcpConfigs,
        },
        { ...io, stdin: emptyStdin() },
      ),
  };
  return t.kind === 'plan' ? planFlow(run, t) : approveFlow(run, t);
}

/** Nobody types on a runner: approvals come from the issue, never from stdin. */
function emptyStdin(): NodeJS.ReadableStream {
  return Readable.from([]);
}
