/**
 * `plan-execute github [options]`: the command line of a run on GitHub Actions. Where the workspace and the
 * event are comes from the Actions environment (GITHUB_WORKSPACE, GITHUB_EVENT_PATH); the flags are the
 * model settings, caps and sandbox mode `run` takes, plus where to write the trace.
 */
import type { SandboxMode } from '../../core/contracts/sandbox';
import { err, ok, type Result } from '../../core/contracts/result';
import { LIMIT_FLAGS, MODEL_FLAGS, parseLimits, parseModels, type CliLimits, type CliModels } from '../cliArgs';

export const GITHUB_USAGE = `usage: node dist/cli.js github [--trace FILE] [--sandbox required|prefer|off] [--max-cost USD] [caps] [model flags]
                           [--no-instructions] [--skip-instruction PATH] [--mcp-config FILE]

  Runs inside a GitHub Actions job (see docs/github.md and action.yml): reads GITHUB_EVENT_NAME,
  GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_API_URL, GITHUB_SERVER_URL, GITHUB_TOKEN, GITHUB_WORKSPACE and
  GITHUB_RUN_ID. An issue labeled plan-execute, or a comment starting with /plan-execute, posts a plan as a
  comment (nothing runs); a comment /approve by someone with write access runs the newest plan comment and
  opens a pull request from a plan-execute/issue-… branch. --trace FILE (default: RUNNER_TEMP/plan-execute/
  trace.jsonl) is the trace the workflow uploads; its path is also written to GITHUB_OUTPUT as "trace".
  Caps and model flags are run's (node dist/cli.js --help); --sandbox defaults to required.`;

export interface GitHubArgs {
  trace?: string;
  sandbox: SandboxMode;
  limits: CliLimits;
  models: CliModels;
  instructions: boolean;
  skipInstructions: string[];
  mcpConfigs: string[];
}

const VALUE_FLAGS = new Set(['--trace', '--sandbox', '--skip-instruction', '--mcp-config', ...LIMIT_FLAGS, ...MODEL_FLAGS]);

export function parseGitHubArgs(argv: readonly string[]): Result<GitHubArgs | 'help', string> {
  const flags = new Map<string, string[]>();
  let instructions = true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--help' || a === '-h') return ok('help');
    if (a === '--no-instructions') {
      instructions = false;
      continue;
    }
    if (!VALUE_FLAGS.has(a)) return err(`unknown option ${a} for "github"`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) return err(`${a} needs a value`);
    flags.set(a, [...(flags.get(a) ?? []), value]);
    i++;
  }
  const one = (name: string): string | undefined => flags.get(name)?.at(-1);
  const sandbox = one('--sandbox') ?? 'required';
  if (sandbox !== 'required' && sandbox !== 'prefer' && sandbox !== 'off') return err(`--sandbox must be required, prefer or off (got "${sandbox}")`);
  const limits = parseLimits(one);
  if (!limits.ok) return limits;
  const models = parseModels(one);
  if (!models.ok) return models;
  const trace = one('--trace');
  return ok({
    sandbox,
    limits: limits.value,
    models: models.value,
    instructions,
    skipInstructions: flags.get('--skip-instruction') ?? [],
    mcpConfigs: flags.get('--mcp-config') ?? [],
    ...(trace ? { trace } : {}),
  });
}
