/**
 * Argument parsing for the headless CLI. Errors are values: a bad command line yields a message and the
 * usage text, never a stack trace.
 *
 *   plan-execute run --workspace DIR --task TEXT [options]        (see USAGE)
 *   plan-execute run --workspace DIR --plan FILE [--allow-other-base] [options]
 *   plan-execute plan --workspace DIR --task TEXT [--out FILE] [options]   (see cliPlan.ts)
 *   plan-execute continue --workspace DIR [--mission ID] [options]
 *   plan-execute replay --trace FILE [--workspace DIR] [--json]
 */
import type { SandboxMode } from '../core/contracts/sandbox';
import type { CapNames, MissionBudgets } from '../core/mission/options';
import { err, ok, type Result } from '../core/contracts/result';

export const USAGE = `usage:
  node dist/cli.js run --workspace DIR --task TEXT [options]
  node dist/cli.js run --workspace DIR --plan FILE [--allow-other-base] [options]
  node dist/cli.js plan --workspace DIR --task TEXT [--out FILE] [options]   plan only, write the plan document (plan --help)
  node dist/cli.js continue --workspace DIR [--mission ID] [options]
  node dist/cli.js replay --trace FILE [--workspace DIR] [--json]
  node dist/cli.js eval [options]        measure missions on a task suite, planned versus direct (eval --help)
  node dist/cli.js github [options]      on a GitHub Actions runner: plan an issue, run an approved plan (github --help)

  run plans and executes a mission. continue goes on with the workspace's latest stopped mission (or
  --mission ID) from where it stopped, finished work kept: a failed one is retried from the failing step, a
  cancelled or budget-stopped one continued, an interrupted one resumed. run --plan runs a plan document
  (written by plan, or by Save Plan in VS Code; see docs/plans.md) after reading and validating it, without
  calling the planner: a document that does not read exits 2 naming each line; one planned on another commit
  than the workspace's asks first (refused without a terminal unless --allow-other-base).

  options (run and continue):
  --approve ask|plan|all   when to ask (default ask): ask before every write and command; plan: approving
                           the plan approves what its steps may do; all: fully unattended — the plan,
                           every replanned version and every action are approved by rule, nobody is asked
                           (unlike VS Code, where every plan version waits for you). --json prints the
                           report as JSON
  --sandbox required|prefer|off
                           commands run in the OS sandbox (bubblewrap on Linux, Seatbelt on macOS). required
                           (default on Linux and macOS): refused where there is none; prefer (default on
                           Windows): where there is none, each command asks on the terminal, whatever
                           --approve says, and runs unconfined; off: no sandbox.
  --trace FILE             append every trace event to FILE
  --no-instructions        do not read the project's instruction files (AGENTS.md, CLAUDE.md,
                           .github/copilot-instructions.md, .github/instructions/*.instructions.md,
                           .cursor/rules/*.mdc, .clinerules); --skip-instruction PATH leaves one out (repeatable)
  --mcp-config FILE        MCP servers to offer, besides .vscode/mcp.json and .mcp.json (repeatable; either
                           file shape). A step may call only the tools its plan grants (authority.mcp); stdio
                           servers run inside the step's OS sandbox
  --constraint TEXT        a constraint binding every step (run only; repeatable)
  --max-cost USD --max-tokens N --max-replans N --max-minutes N --max-step-attempts N --max-plan-steps N
                           the caps (defaults: $5, 2,000,000 tokens, 3 replans, 60 minutes, 100 step attempts,
                           40 plan steps); a mission stopped by one says which flag to raise, then continue it
  --provider anthropic|openai  the API (default anthropic); --base-url its endpoint (e.g.
                           http://localhost:11434/v1 for Ollama); --model one model for every role and tier;
                           --planner-model, --executor-model, --verifier-model one role's model. A model may name
                           another provider: --planner-model anthropic:claude-opus-5-5.
  Keys and endpoints from the environment: ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, OPENAI_API_KEY,
  OPENAI_BASE_URL (local servers need no key). Progress goes to stderr, the report to stdout.
  Exit code 0 only if every required step succeeded.`;

export interface CliModels {
  provider?: 'anthropic' | 'openai';
  baseUrl?: string;
  model?: string;
  plannerModel?: string;
  executorModel?: string;
  verifierModel?: string;
}

/** Caps given on the command line (absent: the defaults). */
export interface CliLimits {
  maxPlanSteps?: number;
  budgets?: Partial<MissionBudgets>;
}

/** What `run` and `continue` share. */
interface CliMissionFlags {
  workspace: string;
  /** False with --no-instructions. */
  instructions: boolean;
  /** Instruction files left out (--skip-instruction). */
  skipInstructions: string[];
  /** Extra MCP configuration files (--mcp-config). */
  mcpConfigs: string[];
  approve: 'ask' | 'plan' | 'all';
  sandbox?: SandboxMode;
  trace?: string;
  limits: CliLimits;
  json: boolean;
  models: CliModels;
}

type CliCommand =
  | ({ kind: 'run'; task: string; constraints: string[]; planFile?: string; allowOtherBase?: boolean } & CliMissionFlags)
  | ({ kind: 'plan'; task: string; constraints: string[]; out?: string } & CliMissionFlags)
  | ({ kind: 'continue'; mission?: string } & CliMissionFlags)
  | { kind: 'replay'; trace: string; workspace?: string; json: boolean }
  /** `command`: the subcommand whose help was asked for (`plan --help`). */
  | { kind: 'help'; command?: string };

export type ParsedArgs = Result<CliCommand, string>;

/** The flag that raises each cap (named in the message of a mission a cap stopped). */
export const CLI_CAP_FLAGS: CapNames = {
  planSteps: '--max-plan-steps',
  replans: '--max-replans',
  tokens: '--max-tokens',
  cost: '--max-cost',
  wall_time: '--max-minutes',
  steps: '--max-step-attempts',
};

export const MODEL_FLAGS = ['--provider', '--base-url', '--model', '--planner-model', '--executor-model', '--verifier-model'];
export const LIMIT_FLAGS = ['--max-cost', '--max-tokens', '--max-replans', '--max-minutes', '--max-step-attempts', '--max-plan-steps'];
const MISSION_FLAGS = ['--workspace', '--approve', '--sandbox', '--trace', '--mcp-config', '--skip-instruction', ...LIMIT_FLAGS, ...MODEL_FLAGS];
/** Flags that take no value. */
const SWITCHES = new Set(['--json', '--no-instructions', '--allow-other-base']);
const KNOWN: Record<string, string[]> = {
  run: [...MISSION_FLAGS, '--task', '--constraint', '--plan'],
  plan: [...MISSION_FLAGS.filter((f) => f !== '--approve'), '--task', '--constraint', '--out'],
  continue: [...MISSION_FLAGS, '--mission'],
  replay: ['--trace', '--workspace'],
};

type Flags = Map<string, string[]>;
/** A parsed value, or the message for the user. */
export type Parsed<T> = Result<T, string>;

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') return ok({ kind: 'help' });
  const known = KNOWN[sub];
  if (!known) return err(`unknown command "${sub}"`);
  if (rest.includes('--help') || rest.includes('-h')) return ok({ kind: 'help', command: sub });
  const flags: Flags = new Map();
  let json = false;
  const switches = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (SWITCHES.has(a)) {
      if (a === '--json') json = true;
      else if (sub === 'replay' || (a === '--allow-other-base' && sub !== 'run')) return err(`unknown option ${a} for "${sub}"`);
      switches.add(a);
      continue;
    }
    if (!a.startsWith('--')) return err(`unexpected argument "${a}"`);
    const value = rest[i + 1];
    if (value === undefined || value.startsWith('--')) return err(`${a} needs a value`);
    flags.set(a, [...(flags.get(a) ?? []), value]);
    i++;
  }
  for (const k of flags.keys()) if (!known.includes(k)) return err(`unknown option ${k} for "${sub}"`);
  const one = (name: string): string | undefined => flags.get(name)?.at(-1);

  if (sub === 'replay') {
    const trace = one('--trace');
    if (!trace) return err('replay needs --trace FILE');
    const workspace = one('--workspace');
    return ok({ kind: 'replay', trace, json, ...(workspace ? { workspace } : {}) });
  }
  const common = missionFlags(sub, flags, json, !switches.has('--no-instructions'));
  if (!common.ok) return common;
  const constraints = flags.get('--constraint') ?? [];
  if (sub === 'run') {
    const task = one('--task');
    const planFile = one('--plan');
    if (planFile !== undefined && (task !== undefined || constraints.length > 0)) {
      return err('run --plan takes the task and the constraints from the plan document: leave out --task and --constraint');
    }
    if (!task && planFile === undefined) return err('run needs --task TEXT (or --plan FILE)');
    const document = { ...(planFile !== undefined ? { planFile } : {}), ...(switches.has('--allow-other-base') ? { allowOtherBase: true } : {}) };
    return ok({ kind: 'run', task: task ?? '', constraints, ...document, ...common.value });
  }
  if (sub === 'plan') {
    const task = one('--task');
    if (!task) return err('plan needs --task TEXT');
    const out = one('--out');
    return ok({ kind: 'plan', task, constraints, ...common.value, ...(out !== undefined ? { out } : {}) });
  }
  const mission = one('--mission');
  return ok({ kind: 'continue', ...common.value, ...(mission ? { mission } : {}) });
}

function missionFlags(sub: string, flags: Flags, json: boolean, instructions: boolean): Parsed<CliMissionFlags> {
  const one = (name: string): string | undefined => flags.get(name)?.at(-1);
  const workspace = one('--workspace');
  if (!workspace) return err(`${sub} needs --workspace DIR`);
  const approve = one('--approve') ?? 'ask';
  if (approve !== 'ask' && approve !== 'plan' && approve !== 'all') return err(`--approve must be ask, plan or all (got "${approve}")`);
  const sandbox = one('--sandbox');
  if (sandbox !== undefined && sandbox !== 'required' && sandbox !== 'prefer' && sandbox !== 'off')
    return err(`--sandbox must be required, prefer or off (got "${sandbox}")`);
  const limits = parseLimits(one);
  if (!limits.ok) return limits;
  const models = parseModels(one);
  if (!models.ok) return models;
  const trace = one('--trace');
  const setup = { instructions, skipInstructions: flags.get('--skip-instruction') ?? [], mcpConfigs: flags.get('--mcp-config') ?? [] };
  return ok({ workspace, approve, limits: limits.value, json, models: models.value, ...setup, ...(sandbox ? { sandbox } : {}), ...(trace ? { trace } : {}) });
}

export function parseLimits(one: (name: string) => string | undefined): Parsed<CliLimits> {
  const budgets: Partial<MissionBudgets> = {};
  const limits: CliLimits = {};
  const cost = one('--max-cost');
  if (cost !== undefined) {
    const usd = Number(cost);
    if (!Number.isFinite(usd) || usd <= 0) return err(`--max-cost must be a positive number of USD (got "${cost}")`);
    budgets.maxCostUsd = usd;
  }
  const counts: [string, (n: number) => void][] = [
    ['--max-tokens', (n) => (budgets.maxTokens = n)],
    ['--max-replans', (n) => (budgets.maxReplans = n)],
    ['--max-minutes', (n) => (budgets.maxWallMs = n * 60_000)],
    ['--max-step-attempts', (n) => (budgets.maxSteps = n)],
    ['--max-plan-steps', (n) => (limits.maxPlanSteps = n)],
  ];
  for (const [flag, set] of counts) {
    const text = one(flag);
    if (text === undefined) continue;
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n < 1) return err(`${flag} must be a whole number of at least 1 (got "${text}")`);
    set(n);
  }
  return ok({ ...limits, ...(Object.keys(budgets).length > 0 ? { budgets } : {}) });
}

export function parseModels(one: (name: string) => string | undefined): Parsed<CliModels> {
  const provider = one('--provider');
  if (provider === 'vscode-lm') return err("--provider vscode-lm works only inside VS Code (VS Code's language models are not reachable from a terminal)");
  if (provider !== undefined && provider !== 'anthropic' && provider !== 'openai') return err(`--provider must be anthropic or openai (got "${provider}")`);
  const baseUrl = one('--base-url');
  if (baseUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(baseUrl)) return err(`--base-url must be an http(s) URL (got "${baseUrl}")`);
  const pick = (flag: string, key: keyof CliModels): Partial<CliModels> => (one(flag) ? { [key]: one(flag) } : {});
  return ok({
    ...(provider ? { provider } : {}),
    ...pick('--base-url', 'baseUrl'),
    ...pick('--model', 'model'),
    ...pick('--planner-model', 'plannerModel'),
    ...pick('--executor-model', 'executorModel'),
    ...pick('--verifier-model', 'verifierModel'),
  });
}
