/**
 * Matching a parsed argv against a step's `commands` allowlist, and the wrapper rule.
 *
 * Patterns are parsed with the same tokenizer as commands. `npm test` allows exactly that argv;
 * `npm test *` allows that prefix plus any further arguments (which have already passed the tokenizer's
 * metacharacter refusals). Matching compares argv elements, never string prefixes (`npm testx` ≠ `npm test`).
 *
 * Wrappers turn their arguments into code, so a wildcard must not smuggle them in:
 *  - wrapper PROGRAMS (sh, bash, env, xargs, sudo, npx, …) are allowed only by a pattern with no wildcard
 *    that names the whole argv exactly;
 *  - EVAL FLAGS of interpreters and tools (node -e, python -c, git -c, npm exec, find -exec, …) are allowed
 *    only when the flag sits in the pattern's literal part (e.g. `node -e *` names it; `node *` does not).
 */
import { err, ok, type Result } from '../contracts/result';
import { deny, type PolicyDenial } from './denial';
import { parseCommand } from './commandParse';

export interface CommandPattern {
  source: string;
  literal: string[];
  wildcard: boolean;
}

export type CommandMatch = Result<CommandPattern, PolicyDenial>;

const WRAPPER_PROGRAMS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'csh',
  'tcsh',
  'fish',
  'ash',
  'busybox',
  'rbash',
  'env',
  'xargs',
  'eval',
  'exec',
  'source',
  '.',
  'command',
  'builtin',
  'sudo',
  'doas',
  'su',
  'runuser',
  'pkexec',
  'nohup',
  'setsid',
  'nice',
  'ionice',
  'timeout',
  'time',
  'stdbuf',
  'unbuffer',
  'script',
  'watch',
  'strace',
  'ltrace',
  'chroot',
  'parallel',
  'ssh',
  'flock',
  'sg',
  'newgrp',
  'cmd',
  'powershell',
  'pwsh',
  'osascript',
  'npx',
  'pnpx',
  'bunx',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'sed',
  'expect',
  'tclsh',
  'wish',
  'open',
  'xdg-open',
]);

interface EvalForms {
  /** Options that make the program run code (checked until a `--`). */
  flags: string[];
  /** Subcommands that run arbitrary packages or code (checked until a `--`). */
  words?: string[];
  /**
   * Options are global and precede a subcommand whose own options mean other things (`git switch -c`):
   * stop at the subcommand. `valueOptions` take a separate value that must be skipped to find it.
   */
  globalOnly?: { valueOptions: string[] };
}

const INTERPRETER: EvalForms = {
  flags: ['-e', '--eval', '-p', '--print', '-r', '--require', '--import', '--loader', '--experimental-loader', '-i', '--interactive'],
};
const PY: EvalForms = { flags: ['-c'] };

/** Programs whose arguments can carry code. Interpreters are scanned over every argument: conservative. */
const EVAL_FORMS: Record<string, EvalForms> = {
  node: INTERPRETER,
  nodejs: INTERPRETER,
  tsx: INTERPRETER,
  'ts-node': INTERPRETER,
  bun: { flags: ['-e', '--eval', '-p', '--print'], words: ['x', 'exec'] },
  deno: { flags: ['--eval'], words: ['eval', 'repl'] },
  python: PY,
  python2: PY,
  python3: PY,
  pypy: PY,
  pypy3: PY,
  perl: { flags: ['-e', '-E'] },
  ruby: { flags: ['-e'] },
  php: { flags: ['-r'] },
  lua: { flags: ['-e'] },
  Rscript: { flags: ['-e'] },
  R: { flags: ['-e'] },
  git: {
    flags: ['-c', '--config-env', '--exec-path'],
    // Subcommands that set config (core.pager, core.fsmonitor… run later), or run commands given to them.
    words: ['config', 'difftool', 'mergetool', 'bisect', 'filter-branch', 'submodule', 'rebase'],
    globalOnly: { valueOptions: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--list-cmds'] },
  },
  npm: { flags: ['--script-shell', '--node-options', '-c', '--call'], words: ['exec', 'x', 'explore'] },
  pnpm: { flags: ['--script-shell', '-c'], words: ['exec', 'dlx'] },
  yarn: { flags: ['--script-shell'], words: ['exec', 'dlx'] },
  find: { flags: ['-exec', '-execdir', '-ok', '-okdir'] },
  tar: { flags: ['--to-command', '--use-compress-program', '-I', '--checkpoint-action', '--info-script', '--new-volume-script', '-F'] },
  rsync: { flags: ['-e', '--rsh', '--rsync-path'] },
  make: { flags: ['--eval', '-E'] },
  vim: { flags: ['-c', '--cmd'] },
  nvim: { flags: ['-c', '--cmd'] },
};

/**
 * Options that make a program write a file wherever they are told — outside the workspace too — checked
 * over EVERY argument (subcommand options included) until `--`. A read-only-looking grant such as
 * `git log *` would otherwise write `--output=~/.bashrc` (or `--outp=…`: git takes unique prefixes of long
 * options, so a prefix counts). Allowed only when the pattern's literal part
 * names the option.
 */
const WRITE_FLAGS: Record<string, string[]> = {
  git: ['--output', '--output-directory'],
};

function programName(arg0: string): string {
  const base = arg0.split('/').pop() ?? arg0;
  return base.replace(/\.(exe|cmd|bat)$/i, '');
}

/** The eval flag `arg` is or carries (`--eval=x`, `-e`, `-ecode`, combined short flags like `-pe`). */
function isEvalFlag(arg: string, flags: string[]): string | undefined {
  if (!arg.startsWith('-')) return undefined;
  for (const f of flags) {
    if (arg === f) return f;
    if (f.startsWith('--') && arg.startsWith(f + '=')) return f;
    if (/^-[A-Za-z]$/.test(f) && !arg.startsWith('--') && arg.slice(1).includes(f[1] as string) && /^-[A-Za-z]/.test(arg)) {
      // -pe, -Bc (combined short flags) or -ecode (attached value): both reach the eval flag.
      const letters = /^-([A-Za-z]+)/.exec(arg)?.[1] ?? '';
      if (letters.includes(f[1] as string)) return f;
    }
  }
  return undefined;
}

export function parsePattern(source: string): CommandPattern | { error: string } {
  const parsed = parseCommand(source, { pattern: true });
  if (!parsed.ok) return { error: `${parsed.error.rule}: ${parsed.error.reason}` };
  return { source, literal: parsed.value.argv, wildcard: parsed.value.wildcard };
}

function matches(argv: string[], p: CommandPattern): boolean {
  if (p.wildcard ? argv.length < p.literal.length : argv.length !== p.literal.length) return false;
  return p.literal.every((w, i) => argv[i] === w);
}

/** Wrapper and eval-flag rule for an argv under the pattern that matched it. */
export function checkWrappers(argv: string[], pattern: CommandPattern): PolicyDenial | undefined {
  const prog = programName(argv[0] as string);
  if (WRAPPER_PROGRAMS.has(prog) && pattern.wildcard) {
    return { rule: 'command.wrapper', reason: `\`${prog}\` runs other commands; it is allowed only when the allowlist names the exact command (no *)` };
  }
  const writeFlags = WRITE_FLAGS[prog];
  if (writeFlags) {
    for (let i = 1; i < argv.length; i++) {
      const arg = argv[i] as string;
      if (arg === '--') break;
      // Long options may be abbreviated to any unique prefix (`--outp=` is `--output=`), so a prefix counts.
      const name = arg.split('=')[0] as string;
      const hit = isEvalFlag(arg, writeFlags) ?? (name.startsWith('--') && name.length > 3 ? writeFlags.find((f) => f.startsWith(name)) : undefined);
      if (hit && i >= pattern.literal.length) {
        return {
          rule: 'command.write_flag',
          reason: `\`${prog} ${hit}\` writes a file wherever it is told, even outside the workspace; it is allowed only when the allowlist names that form`,
        };
      }
    }
  }
  const passed = scriptArgsEval(prog, argv, pattern);
  if (passed) return passed;
  const forms = EVAL_FORMS[prog];
  if (forms) {
    for (let i = 1; i < argv.length; i++) {
      const arg = argv[i] as string;
      if (arg === '--') break;
      const global = forms.globalOnly;
      const subcommand = global !== undefined && !arg.startsWith('-');
      const hit = subcommand
        ? forms.words?.includes(arg)
          ? arg
          : undefined
        : (isEvalFlag(arg, forms.flags) ?? (forms.words?.includes(arg) ? arg : undefined));
      if (hit && i >= pattern.literal.length) {
        return {
          rule: 'command.eval_flag',
          reason: `\`${prog} ${hit}\` runs code given as an argument; it is allowed only when the allowlist names that form (e.g. "${prog} ${hit} *")`,
        };
      }
      if (subcommand) break; // past the subcommand, options are its own, not global ones
      if (global?.valueOptions.includes(arg)) i++;
    }
  }
  return undefined;
}

/** Package managers whose run-scripts hand extra arguments to the script's own program. */
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);

/**
 * `npm test -- --import=data:…`: npm passes what follows `--` to the script's program (pnpm, yarn and bun
 * what follows the script's name), and a script such as `node --test` takes it as its own option — code given
 * on the command line. Those arguments are checked against an interpreter's eval flags, as if the program
 * were named (allowed only when the allowlist names the form).
 */
function scriptArgsEval(prog: string, argv: string[], pattern: CommandPattern): PolicyDenial | undefined {
  if (!SCRIPT_RUNNERS.has(prog)) return undefined;
  let from = argv.indexOf('--') + 1;
  if (prog !== 'npm') {
    const words = argv.map((a, i) => ({ a, i })).filter(({ a, i }) => i > 0 && !a.startsWith('-'));
    const script = words[0]?.a === 'run' || words[0]?.a === 'run-script' ? words[1] : words[0];
    if (script && (from === 0 || script.i + 1 < from)) from = script.i + 1;
  }
  if (from <= 0) return undefined;
  for (let i = Math.max(from, 1); i < argv.length; i++) {
    const hit = isEvalFlag(argv[i] as string, INTERPRETER.flags);
    if (hit && i >= pattern.literal.length) {
      return {
        rule: 'command.eval_flag',
        reason: `\`${prog}\` hands \`${hit}\` to the script's program, which runs code given as an argument; it is allowed only when the allowlist names that form`,
      };
    }
  }
  return undefined;
}

/** First pattern that matches argv and passes the wrapper rule. */
export function matchAllowlist(argv: string[], patterns: CommandPattern[]): CommandMatch {
  let wrapperRefusal: PolicyDenial | undefined;
  for (const p of patterns) {
    if (!matches(argv, p)) continue;
    const w = checkWrappers(argv, p);
    if (!w) return ok(p);
    wrapperRefusal ??= w;
  }
  if (wrapperRefusal) return err(wrapperRefusal);
  if (WRAPPER_PROGRAMS.has(programName(argv[0] as string))) {
    return deny('command.wrapper', `\`${programName(argv[0] as string)}\` runs other commands and is not in the step's allowlist`);
  }
  const allowed = patterns.map((p) => p.source).join(', ') || '(none)';
  return deny('command.not_allowlisted', `\`${argv.join(' ')}\` is not in the step's command allowlist: ${allowed}`);
}
