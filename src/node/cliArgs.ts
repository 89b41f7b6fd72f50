/**
 * Argument parsing for the headless CLI. Errors are values: a bad command line yields a message and the
 * usage text, never a stack trace.
 *
 *   plan-execute run --workspace DIR --task TEXT [--approve ask|plan|all] [--sandbox required|prefer|off] [--trace FILE] [--max-cost USD]
 *                    [--constraint TEXT]... [--provider anthropic|openai] [--base-url URL] [--model NAME]
 *                    [--planner-model NAME] [--executor-model NAME] [--verifier-model NAME] [--json]
 *   plan-execute replay --trace FILE [--workspace DIR] [--json]
 */
import type { SandboxMode } from '../core/contracts/sandbox';

export const USAGE = `usage:
  node dist/cli.js run --workspace DIR --task TEXT [--approve ask|plan|all] [--sandbox required|prefer|off] [--trace FILE] [--max-cost USD]
                       [--constraint TEXT]... [--provider anthropic|openai] [--base-url URL] [--model NAME]
                       [--planner-model NAME] [--executor-model NAME] [--verifier-model NAME] [--json]
  node dist/cli.js replay --trace FILE [--workspace DIR] [--json]

  --provider picks the API (default anthropic); --base-url its endpoint (e.g. http://localhost:11434/v1 for
  Ollama); --model one model for every role and tier; --planner-model, --executor-model, --verifier-model
  one role's model. A model may name another provider: --planner-model anthropic:claude-opus-5-5.
  --sandbox: commands run in the OS sandbox (bubblewrap on Linux, Seatbelt on macOS). required (default on
  Linux and macOS): refused where there is none; prefer (default on Windows): where there is none, each
  command asks on the terminal, whatever --approve says, and runs unconfined; off: no sandbox.
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

export type CliCommand =
  | { kind: 'run'; workspace: string; task: string; approve: 'ask' | 'plan' | 'all'; sandbox?: SandboxMode; trace?: string; maxCostUsd?: number; constraints: string[]; json: boolean; models: CliModels }
  | { kind: 'replay'; trace: string; workspace?: string; json: boolean }
  | { kind: 'help' };

export type ParsedArgs = { ok: true; command: CliCommand } | { ok: false; message: string };

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') return { ok: true, command: { kind: 'help' } };
  const flags = new Map<string, string[]>();
  let json = false;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--json') {
      json = true;
      continue;
    }
    if (!a.startsWith('--')) return { ok: false, message: `unexpected argument "${a}"` };
    const value = rest[i + 1];
    if (value === undefined || value.startsWith('--')) return { ok: false, message: `${a} needs a value` };
    flags.set(a, [...(flags.get(a) ?? []), value]);
    i++;
  }
  const one = (name: string): string | undefined => flags.get(name)?.at(-1);
  const modelFlags = ['--provider', '--base-url', '--model', '--planner-model', '--executor-model', '--verifier-model'];
  const known = sub === 'run' ? ['--workspace', '--task', '--approve', '--sandbox', '--trace', '--max-cost', '--constraint', ...modelFlags] : ['--trace', '--workspace'];
  for (const k of flags.keys()) if (!known.includes(k)) return { ok: false, message: `unknown option ${k} for "${sub}"` };

  if (sub === 'run') {
    const workspace = one('--workspace');
    const task = one('--task');
    if (!workspace) return { ok: false, message: 'run needs --workspace DIR' };
    if (!task) return { ok: false, message: 'run needs --task TEXT' };
    const approve = one('--approve') ?? 'ask';
    if (approve !== 'ask' && approve !== 'plan' && approve !== 'all') return { ok: false, message: `--approve must be ask, plan or all (got "${approve}")` };
    const sandbox = one('--sandbox');
    if (sandbox !== undefined && sandbox !== 'required' && sandbox !== 'prefer' && sandbox !== 'off') return { ok: false, message: `--sandbox must be required, prefer or off (got "${sandbox}")` };
    const maxCost = one('--max-cost');
    let maxCostUsd: number | undefined;
    if (maxCost !== undefined) {
      maxCostUsd = Number(maxCost);
      if (!Number.isFinite(maxCostUsd) || maxCostUsd <= 0) return { ok: false, message: `--max-cost must be a positive number of USD (got "${maxCost}")` };
    }
    const trace = one('--trace');
    const provider = one('--provider');
    if (provider === 'vscode-lm') return { ok: false, message: "--provider vscode-lm works only inside VS Code (VS Code's language models are not reachable from a terminal)" };
    if (provider !== undefined && provider !== 'anthropic' && provider !== 'openai') return { ok: false, message: `--provider must be anthropic or openai (got "${provider}")` };
    const baseUrl = one('--base-url');
    if (baseUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(baseUrl)) return { ok: false, message: `--base-url must be an http(s) URL (got "${baseUrl}")` };
    const pick = (flag: string, key: keyof CliModels): Partial<CliModels> => (one(flag) ? { [key]: one(flag) } : {});
    const models: CliModels = {
      ...(provider ? { provider } : {}),
      ...pick('--base-url', 'baseUrl'),
      ...pick('--model', 'model'),
      ...pick('--planner-model', 'plannerModel'),
      ...pick('--executor-model', 'executorModel'),
      ...pick('--verifier-model', 'verifierModel'),
    };
    return {
      ok: true,
      command: { kind: 'run', workspace, task, approve, constraints: flags.get('--constraint') ?? [], json, models, ...(sandbox ? { sandbox } : {}), ...(trace ? { trace } : {}), ...(maxCostUsd !== undefined ? { maxCostUsd } : {}) },
    };
  }
  if (sub === 'replay') {
    const trace = one('--trace');
    if (!trace) return { ok: false, message: 'replay needs --trace FILE' };
    const workspace = one('--workspace');
    return { ok: true, command: { kind: 'replay', trace, json, ...(workspace ? { workspace } : {}) } };
  }
  return { ok: false, message: `unknown command "${sub}"` };
}
