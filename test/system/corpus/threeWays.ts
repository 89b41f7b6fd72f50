/**
 * Runs one scenario three ways, each on its own fresh copy of the scene (built once, copied with `cp -a`
 * so modes, links and sparse files come out the same):
 *   plain        each command's argv run directly (child_process, no shell, no product) in the workspace,
 *                with the environment a user's shell gives the CLI;
 *   unsandboxed  the real CLI, `run … --approve all --sandbox off`, the scripted executor running the
 *                commands as one step with the scenario's authority;
 *   sandboxed    the same with `--sandbox required`.
 * Then reads what each left (observe.ts). The comparison is compare.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseCommand } from '../../../src/core/policy/commandParse';
import { runCliMission, sh } from '../sandbox/cliRun';
import { filesOf, gitState, normalise, parseToolResult } from './observe';
import {
  userGitConfig,
  type CommandOutcome,
  type CorpusContext,
  type FileFact,
  type GitState,
  type Mode,
  type ModeRun,
  type Scenario,
  type SceneDirs,
} from './scenario';

const REPO = resolve(__dirname, '../../..');

/** The product's own per-command deadline (DEFAULT_TOOL_SETTINGS.commandTimeoutMs): plain runs get the same. */
const COMMAND_TIMEOUT_MS = 120_000;

export interface ThreeRuns {
  initial: { files: Map<string, FileFact>; git: GitState | undefined };
  plain: ModeRun;
  unsandboxed: ModeRun;
  sandboxed: ModeRun;
}

/** The environment a user's shell gives the CLI (and so, after the CLI's own scrub, its commands). */
const userEnv = (dirs: SceneDirs, s: Scenario): Record<string, string> => ({
  PATH: [...(s.pathBefore?.(dirs) ?? []), process.env.PATH ?? '/usr/bin:/bin'].join(':'),
  HOME: dirs.home,
  XDG_RUNTIME_DIR: dirs.run,
  LANG: 'C.UTF-8',
});

const dirsIn = (root: string): SceneDirs => ({ root, home: join(root, 'home'), ws: join(root, 'work', 'app'), run: join(root, 'run') });

/** One argv, no shell, stdout and stderr into one file; the whole process group is ended afterwards, as the product does. */
function runArgv(argv: string[], dirs: SceneDirs, env: Record<string, string>): Promise<{ exit: number | 'none'; ms: number; output: string }> {
  const file = join(dirs.root, 'plain-output.txt');
  const fd = openSync(file, 'w');
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(argv[0] ?? '', argv.slice(1), { cwd: dirs.ws, env, stdio: ['ignore', fd, fd], detached: true });
    const kill = (): void => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        // the group is gone
      }
    };
    const timer = setTimeout(kill, COMMAND_TIMEOUT_MS);
    const finish = (exit: number | 'none', extra = ''): void => {
      clearTimeout(timer);
      kill();
      closeSync(fd);
      done({ exit, ms: Date.now() - started, output: readFileSync(file, 'utf8') + extra });
    };
    child.on('error', (e) => finish(127, `${e.message}\n`));
    child.on('exit', (code) => finish(code ?? 'none'));
  });
}

async function runPlain(s: Scenario, dirs: SceneDirs): Promise<CommandOutcome[]> {
  const out: CommandOutcome[] = [];
  for (const command of s.commands) {
    const parsed = parseCommand(command);
    if (!parsed.ok) throw new Error(`scenario ${s.name}: "${command}" does not parse (${parsed.error.reason})`);
    const r = await runArgv(parsed.value.argv, dirs, userEnv(dirs, s));
    out.push({ command, exit: r.exit, denied: false, ms: r.ms, output: normalise(r.output, dirs), notes: [] });
  }
  return out;
}

async function runThroughCli(s: Scenario, dirs: SceneDirs, mode: 'unsandboxed' | 'sandboxed'): Promise<{ commands: CommandOutcome[]; log: string }> {
  const ids = s.commands.map((_, i) => `c${i + 1}`);
  const mission = await runCliMission(
    { ...dirs, canaries: { apiKey: 'sk-ant-test-corpus' } },
    {
      steps: [
        {
          id: 's1',
          required: true,
          authority: { ...s.authority, commands: [...new Set(s.commands)] },
          turns: s.commands.map((command, i) => [sh(ids[i] ?? '', command)]),
          evidence: [{ kind: 'files_exist', paths: ['README.md'] }],
        },
      ],
      args: ['--sandbox', mode === 'sandboxed' ? 'required' : 'off'],
      path: userEnv(dirs, s).PATH,
      timeoutMs: s.timeoutMs ?? 180_000,
    },
  );
  const commands = s.commands.map((command, i) => {
    const result = mission.toolResults.get(ids[i] ?? '');
    return parseToolResult(command, result?.content, result?.isError ?? false, dirs);
  });
  return { commands, log: `exit ${mission.code}\n${mission.stderr}` };
}

export interface CorpusWorld {
  /** Runs a scenario three ways; its scenes are kept until dispose (PE_CORPUS_KEEP=1 keeps them after). */
  run(s: Scenario): Promise<ThreeRuns>;
  dispose(): void;
}

/**
 * Scenes live in the repository's test-results/corpus/ (as the escape suite's do: a sandbox that hides a
 * whole temporary folder would hide a neighbour by accident); PE_CORPUS_BASE moves them.
 */
export function createCorpusWorld(ctx: CorpusContext): CorpusWorld {
  const parent = process.env.PE_CORPUS_BASE ?? join(REPO, 'test-results', 'corpus');
  mkdirSync(parent, { recursive: true });
  const base = mkdtempSync(join(parent, 'corpus-'));
  let n = 0;
  return {
    async run(s) {
      const at = join(base, `${++n}-${s.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}`);
      const template = dirsIn(join(at, 'template'));
      for (const d of [template.home, template.ws, template.run]) mkdirSync(d, { recursive: true });
      // Every user has a git identity; a scenario may set up more of ~/.gitconfig over it.
      userGitConfig(template.home);
      s.build(template, ctx);
      const initial = { files: filesOf(template.ws), git: gitState(template) };
      const copy = (mode: Mode): SceneDirs => {
        const r = spawnSync('/bin/cp', ['-a', join(at, 'template'), join(at, mode)], { encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`copying the scene failed: ${r.stderr}`);
        return dirsIn(join(at, mode));
      };
      const observe = (mode: Mode, dirs: SceneDirs, commands: CommandOutcome[], log: string): ModeRun => ({
        mode,
        dirs,
        commands,
        files: filesOf(dirs.ws),
        git: gitState(dirs),
        log,
      });
      const [plainDirs, uDirs, sDirs] = [copy('plain'), copy('unsandboxed'), copy('sandboxed')];
      // The three copies share nothing, so the three runs go side by side (each CLI run is mostly waiting).
      const [plainCommands, u, sb] = await Promise.all([runPlain(s, plainDirs), runThroughCli(s, uDirs, 'unsandboxed'), runThroughCli(s, sDirs, 'sandboxed')]);
      return {
        initial,
        plain: observe('plain', plainDirs, plainCommands, ''),
        unsandboxed: observe('unsandboxed', uDirs, u.commands, u.log),
        sandboxed: observe('sandboxed', sDirs, sb.commands, sb.log),
      };
    },
    dispose() {
      if (process.env.PE_CORPUS_KEEP === '1') return;
      spawnSync('/bin/rm', ['-rf', base], { stdio: 'ignore' });
      rmSync(base, { recursive: true, force: true });
    },
  };
}
