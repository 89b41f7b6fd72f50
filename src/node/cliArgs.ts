/**
 * The headless CLI's commands, declared as data (./cliFlags.ts reads them and prints their help). Errors
 * are values: a bad command line yields a message and the way to the help, never a stack trace.
 *
 *   plan-execute run --workspace DIR --task TEXT [options]
 *   plan-execute run --workspace DIR --plan FILE [--allow-other-base] [options]
 *   plan-execute plan --workspace DIR --task TEXT [--out FILE] [options]   (see cliPlan.ts)
 *   plan-execute continue --workspace DIR [--mission ID] [options]
 *   plan-execute replay --trace FILE [--workspace DIR] [--json]
 *   plan-execute COMMAND --help
 *
 * A new subcommand declares a CommandSpec (in its own file) and joins COMMANDS; a new flag joins the list
 * of the commands that take it, and reads its value in their `build`. Its help comes with it.
 */
import type { SandboxMode } from '../core/contracts/sandbox';
import type { CapNames, MissionBudgets } from '../core/mission/options';
import { err, ok, type Result } from '../core/contracts/result';
import { commandHelp, HELP, parseCommand, wrap, type CommandSpec, type FlagSpec, type Parsed, type ReadFlags } from './cliFlags';

export type { Parsed } from './cliFlags';

const PROGRAM = 'node dist/cli.js';

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
  /** --trust-hooks: the project's hooks run (else they are named on stderr and skipped). */
  trustHooks: boolean;
  approve: 'ask' | 'plan' | 'all';
  sandbox?: SandboxMode;
  trace?: string;
  /** --allow-tracked-secrets. */
  allowTrackedSecrets: boolean;
  limits: CliLimits;
  json: boolean;
  models: CliModels;
}

type CliCommand =
  | ({ kind: 'run'; task: string; constraints: string[]; planFile?: string; allowOtherBase?: boolean } & CliMissionFlags)
  | ({ kind: 'plan'; task: string; constraints: string[]; out?: string } & CliMissionFlags)
  | ({ kind: 'continue'; mission?: string } & CliMissionFlags)
  | { kind: 'replay'; trace: string; workspace?: string; json: boolean }
  /** The help: of one command, or (no command) the overview. */
  | { kind: 'help'; text: string };

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

/** Go on although git tracks secrets the mission's commands can print through git (named in the refusal). */
export const ALLOW_TRACKED_SECRETS = '--allow-tracked-secrets';

const JSON_FLAG: FlagSpec = { name: '--json', help: 'print the report as JSON' };

const MODEL_FLAG_SPECS: FlagSpec[] = [
  { name: '--provider', value: 'anthropic|openai', help: 'the API every role uses (default anthropic)' },
  {
    name: '--base-url',
    value: 'URL',
    help: "the provider's endpoint (e.g. http://localhost:11434/v1 for Ollama); default: ANTHROPIC_BASE_URL or OPENAI_BASE_URL, else the public API",
  },
  { name: '--model', value: 'NAME', help: 'one model for every role and tier' },
  { name: '--planner-model', value: 'NAME', help: "the planner's model; provider:model names another provider (anthropic:claude-opus-5-5)" },
  { name: '--executor-model', value: 'NAME', help: "the executors' model" },
  { name: '--verifier-model', value: 'NAME', help: "the verifier's model" },
];

const LIMIT_FLAG_SPECS: FlagSpec[] = [
  { name: '--max-cost', value: 'USD', help: 'model spend per mission (default $5; calls at an unknown price count as nothing)' },
  { name: '--max-tokens', value: 'N', help: 'model tokens per mission, all roles (default 2,000,000)' },
  { name: '--max-replans', value: 'N', help: 'replans, accepted or refused (default 3)' },
  { name: '--max-minutes', value: 'N', help: 'execution wall time (default 60)' },
  { name: '--max-step-attempts', value: 'N', help: 'step attempts, retries included (default 100)' },
  { name: '--max-plan-steps', value: 'N', help: 'the most steps a plan may have (default 40); a mission a cap stopped names the flag to raise' },
];

export const MODEL_FLAGS = MODEL_FLAG_SPECS.map((f) => f.name);
export const LIMIT_FLAGS = LIMIT_FLAG_SPECS.map((f) => f.name);

/** The flags `run` and `continue` share, in the order their help lists them. */
const MISSION_FLAG_SPECS: FlagSpec[] = [
  { name: '--workspace', value: 'DIR', help: 'the project folder the mission works in (required; checked first)' },
  {
    name: '--approve',
    value: 'MODE',
    choices: ['ask', 'plan', 'all'],
    help:
      'when to ask (default ask): ask before every write and command; plan: approving the plan approves what its steps may do; ' +
      'all: fully unattended — the plan, every replanned version and every action are approved by rule (unlike VS Code, where every plan version waits for you)',
  },
  {
    name: '--sandbox',
    value: 'MODE',
    choices: ['required', 'prefer', 'off'],
    help:
      'commands run in the OS sandbox (bubblewrap on Linux, Seatbelt on macOS). required (default on Linux and macOS): refused where there is none; ' +
      'prefer (default on Windows): where there is none, each command asks on the terminal and runs unconfined; off: no sandbox',
  },
  { name: '--trace', value: 'FILE', help: 'append every trace event to FILE' },
  {
    name: ALLOW_TRACKED_SECRETS,
    help: 'go on although git tracks files that hold secrets (a .env, a key): the sandbox keeps them out of the working tree, but any command can print them through git (git show HEAD:.env); without this flag such a mission runs no command',
  },
  {
    name: '--no-instructions',
    help: "read none of the project's instruction files (AGENTS.md, CLAUDE.md, .github/copilot-instructions.md, .github/instructions/*.instructions.md, .cursor/rules/*.mdc, .clinerules)",
  },
  { name: '--skip-instruction', value: 'PATH', repeatable: true, help: 'leave one instruction file out' },
  {
    name: '--trust-hooks',
    help:
      "run the project's hooks (.claude/settings.json, .claude/settings.local.json, .github/hooks/*.json, .codex/hooks.json) — repository code, " +
      "run in each step's sandbox; without it each is named on stderr and skipped. Your own ~/.claude/settings.json hooks always run (docs/hooks.md)",
  },
  {
    name: '--mcp-config',
    value: 'FILE',
    repeatable: true,
    help:
      'MCP servers to offer besides .vscode/mcp.json and .mcp.json (either file shape). A step may call only the tools its plan grants; ' +
      "stdio servers run inside the step's OS sandbox (docs/user-setup.md says what they see)",
  },
  ...LIMIT_FLAG_SPECS,
  ...MODEL_FLAG_SPECS,
  JSON_FLAG,
];

/** What each provider needs, said in every mission command's help (and checked in this order by cliModels.ts). */
const KEY_NOTES = [
  'Keys and endpoints, per provider (checked after the workspace):',
  '  anthropic  ANTHROPIC_API_KEY, required unless the endpoint is on this machine (a loopback --base-url or',
  '             ANTHROPIC_BASE_URL such as http://127.0.0.1:PORT needs none). Endpoint: --base-url, else',
  '             ANTHROPIC_BASE_URL, else the public API.',
  '  openai     OPENAI_API_KEY, required only for api.openai.com; a local server (Ollama, LM Studio) or a',
  '             gateway may need none. Endpoint: --base-url, else OPENAI_BASE_URL, else the public API.',
  'Progress goes to stderr, the report to stdout. Exit code 0 only if every required step succeeded (1: it did',
  'not; 2: a bad command line or setup; 3: a replay diverged).',
];

const missionFlags = (sub: string, f: ReadFlags): Parsed<CliMissionFlags> => {
  const workspace = f.one('--workspace');
  if (!workspace) return err(`${sub} needs --workspace DIR`);
  const limits = parseLimits(f.one);
  if (!limits.ok) return limits;
  const models = parseModels(f.one);
  if (!models.ok) return models;
  const sandbox = f.one('--sandbox') as SandboxMode | undefined;
  const trace = f.one('--trace');
  return ok({
    workspace,
    approve: (f.one('--approve') ?? 'ask') as CliMissionFlags['approve'],
    limits: limits.value,
    json: f.has('--json'),
    models: models.value,
    instructions: !f.has('--no-instructions'),
    skipInstructions: f.all('--skip-instruction'),
    mcpConfigs: f.all('--mcp-config'),
    trustHooks: f.has('--trust-hooks'),
    allowTrackedSecrets: f.has(ALLOW_TRACKED_SECRETS),
    ...(sandbox ? { sandbox } : {}),
    ...(trace ? { trace } : {}),
  });
};

const RUN: CommandSpec<CliCommand> = {
  name: 'run',
  synopsis: 'run --workspace DIR --task TEXT [options]',
  summary:
    'Plans and executes a mission: the planner writes a typed plan, you approve it (or --approve says who does), executors carry out its steps ' +
    'under each step’s authority, the verifier checks the evidence, and failures lead to a replan. Approvals are asked on the terminal in ask mode.',
  flags: [
    { name: '--task', value: 'TEXT', help: 'what should be done (required, unless --plan)' },
    { name: '--constraint', value: 'TEXT', repeatable: true, help: 'a constraint binding every step' },
    {
      name: '--plan',
      value: 'FILE',
      help:
        'run a plan document (written by plan, or by Save Plan in VS Code; docs/plans.md) after reading and validating it, without calling the planner; ' +
        'the task and constraints come from the document. One that does not read exits 2 naming each line',
    },
    { name: '--allow-other-base', help: 'with --plan and no terminal: run a document planned on another commit than the workspace’s (a terminal asks)' },
    ...MISSION_FLAG_SPECS,
  ],
  notes: KEY_NOTES,
  build: (f) => {
    const common = missionFlags('run', f);
    if (!common.ok) return common;
    const task = f.one('--task');
    const planFile = f.one('--plan');
    const constraints = f.all('--constraint');
    if (planFile !== undefined && (task !== undefined || constraints.length > 0)) {
      return err('run --plan takes the task and the constraints from the plan document: leave out --task and --constraint');
    }
    if (f.has('--allow-other-base') && planFile === undefined) return err('--allow-other-base goes with --plan FILE');
    if (!task && planFile === undefined) return err('run needs --task TEXT (or --plan FILE)');
    const document = { ...(planFile !== undefined ? { planFile } : {}), ...(f.has('--allow-other-base') ? { allowOtherBase: true } : {}) };
    return ok({ kind: 'run', task: task ?? '', constraints, ...document, ...common.value });
  },
};

const PLAN: CommandSpec<CliCommand> = {
  name: 'plan',
  synopsis: 'plan --workspace DIR --task TEXT [--out FILE] [options]',
  summary:
    'Plans the task and writes the plan document, then exits: nothing runs, no executor is called. The document is Markdown you can read, edit, ' +
    'commit and review (docs/plans.md): the goal, each step as "## id · title" with its authority, evidence and cost estimate, and its instructions. ' +
    'Run it later, as it is or edited: run --workspace DIR --plan FILE.',
  flags: [
    { name: '--task', value: 'TEXT', help: 'what should be done (required)' },
    { name: '--constraint', value: 'TEXT', repeatable: true, help: 'a constraint binding every step' },
    { name: '--out', value: 'FILE', help: 'write the document to FILE (default: print it on stdout); --json prints { plan, meta } instead' },
    // Nothing runs, so nothing is approved: --approve is not a flag of plan.
    ...MISSION_FLAG_SPECS.filter((f) => f.name !== '--approve'),
  ],
  notes: [
    'The executor and verifier models price the estimate. Exit code 0 when the document was written; 1 when planning failed; 2 for a bad',
    'command line or setup.',
  ],
  build: (f) => {
    const common = missionFlags('plan', f);
    if (!common.ok) return common;
    const task = f.one('--task');
    if (!task) return err('plan needs --task TEXT');
    const out = f.one('--out');
    return ok({ kind: 'plan', task, constraints: f.all('--constraint'), ...common.value, ...(out !== undefined ? { out } : {}) });
  },
};

const CONTINUE: CommandSpec<CliCommand> = {
  name: 'continue',
  synopsis: 'continue --workspace DIR [--mission ID] [options]',
  summary:
    "Goes on with the workspace's latest stopped mission (or --mission ID) from where it stopped, finished work kept: a failed one is retried " +
    'from the failing step, a cancelled or cap-stopped one continued, an interrupted one resumed. No new plan.',
  flags: [{ name: '--mission', value: 'ID', help: 'the mission to go on with (default: the latest)' }, ...MISSION_FLAG_SPECS],
  notes: KEY_NOTES,
  build: (f) => {
    const common = missionFlags('continue', f);
    if (!common.ok) return common;
    const mission = f.one('--mission');
    return ok({ kind: 'continue', ...common.value, ...(mission ? { mission } : {}) });
  },
};

const REPLAY: CommandSpec<CliCommand> = {
  name: 'replay',
  synopsis: 'replay --trace FILE [--workspace DIR] [--json]',
  summary:
    'Re-runs a recorded mission with every model answer and approval taken from the trace: no API call, nobody asked, no key needed. Run it on a ' +
    'copy of the workspace as it was before the recorded mission; exit code 3 if the mission diverges from the recording.',
  flags: [
    { name: '--trace', value: 'FILE', help: 'the recorded trace (JSON Lines; also an exported one) (required)' },
    { name: '--workspace', value: 'DIR', help: 'the copy to replay on (default: the recorded workspace)' },
    JSON_FLAG,
  ],
  build: (f) => {
    const trace = f.one('--trace');
    if (!trace) return err('replay needs --trace FILE');
    const workspace = f.one('--workspace');
    return ok({ kind: 'replay', trace, json: f.has('--json'), ...(workspace ? { workspace } : {}) });
  },
};

/** The commands this parser reads, in the order the overview lists them. */
const COMMANDS: readonly CommandSpec<CliCommand>[] = [RUN, PLAN, CONTINUE, REPLAY];

/** Commands with a parser of their own (dispatched before this one), listed in the overview all the same. */
const OTHER_COMMANDS = [
  { synopsis: 'eval [options]', summary: 'measures missions on a task suite, planned versus direct (eval --help).' },
  { synopsis: 'github [options]', summary: 'on a GitHub Actions runner: plans an issue, runs an approved plan (github --help).' },
];

/** The overview: every command's usage line and what it does. */
function overview(): string {
  const entries = [...COMMANDS, ...OTHER_COMMANDS];
  return [
    'usage:',
    ...entries.map((c) => `  ${PROGRAM} ${c.synopsis}`),
    `  ${PROGRAM} COMMAND --help          the options of one command`,
    '',
    ...entries.flatMap((c) => [`  ${wrap(`${c.synopsis.split(' ')[0]!}: ${firstSentence(c.summary)}`, 98, '    ')}`]),
    '',
    ...KEY_NOTES,
  ].join('\n');
}

const firstSentence = (text: string): string => /^[^.]*\./.exec(text)?.[0] ?? text;

/** What follows an error on the command line: the command's usage line and the way to its help. */
export function usageHint(command: string | undefined): string {
  const spec = COMMANDS.find((c) => c.name === command);
  return spec
    ? `usage: ${PROGRAM} ${spec.synopsis}\n(${PROGRAM} ${spec.name} --help lists every option)`
    : `usage: ${PROGRAM} COMMAND [options]\n(${PROGRAM} --help lists the commands)`;
}

/** The help of `command` (the overview when it is not one of ours). */
export function helpFor(command: string | undefined): string {
  const spec = COMMANDS.find((c) => c.name === command);
  return spec ? commandHelp(PROGRAM, spec) : overview();
}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') return ok({ kind: 'help', text: overview() });
  if (sub === 'help') return ok({ kind: 'help', text: helpFor(rest[0]) });
  const spec = COMMANDS.find((c) => c.name === sub);
  if (!spec) return err(`unknown command "${sub}"`);
  const parsed = parseCommand(spec, rest);
  if (!parsed.ok) return parsed;
  return parsed.value === HELP ? ok({ kind: 'help', text: commandHelp(PROGRAM, spec) }) : ok(parsed.value);
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
