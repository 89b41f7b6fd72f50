/**
 * The CLI's command lines as data: each subcommand declares its flags once (name, value, choices, help),
 * and both the parser and the help come from that declaration. A subcommand or a flag added elsewhere gets
 * `--help` by being declared; nothing here knows which commands exist.
 *
 * Reading a command line, in this order: `--help`/`-h` anywhere wins (the command's help, whatever else is
 * wrong); then every word must be a declared flag of that command (`--flag value` or `--flag=value`;
 * a switch takes no value); then each value with declared choices must be one of them. What the values
 * mean is the command's `build` (./cliArgs.ts).
 */
import { err, ok, type Result } from '../core/contracts/result';

/** A parsed value, or the message for the user. */
export type Parsed<T> = Result<T, string>;

export interface FlagSpec {
  /** `--workspace`. */
  name: string;
  /** The value's placeholder in the help (`DIR`); absent: a switch, which takes no value. */
  value?: string;
  /** The only values it takes (shown as `ask|plan|all`, and checked before `build` sees them). */
  choices?: readonly string[];
  /** What it does, in words; the help wraps it. */
  help: string;
  /** May be given more than once; every value is kept (otherwise the last one counts). */
  repeatable?: boolean;
}

/** The flags of one command line, as read. */
export interface ReadFlags {
  /** The last value of a flag (undefined: not given). */
  one(name: string): string | undefined;
  /** Every value of a repeatable flag, in order. */
  all(name: string): string[];
  /** A switch was given. */
  has(name: string): boolean;
}

export interface CommandSpec<T> {
  name: string;
  /** The usage line after the program: `run --workspace DIR --task TEXT [options]`. */
  synopsis: string;
  /** What the command does, in a few sentences. */
  summary: string;
  /** Its flags, in the order the help lists them. */
  flags: readonly FlagSpec[];
  /** Lines printed after the flags (examples, notes). */
  notes?: readonly string[];
  /** The command from its flags: the flags are known and well-formed; this checks what they mean. */
  build(flags: ReadFlags): Parsed<T>;
}

/** `--help` was asked for this command. */
export const HELP = Symbol('help');

const isHelp = (word: string): boolean => word === '--help' || word === '-h';

/** Reads `argv` (the words after the command's name) against the command's declared flags. */
function readFlags(spec: Pick<CommandSpec<unknown>, 'name' | 'flags'>, argv: readonly string[]): Parsed<ReadFlags | typeof HELP> {
  if (argv.some(isHelp)) return ok(HELP);
  const declared = new Map(spec.flags.map((f) => [f.name, f]));
  const values = new Map<string, string[]>();
  const switches = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith('--')) return err(`unexpected argument "${word}" for "${spec.name}"`);
    const eq = word.indexOf('=');
    const name = eq > 0 ? word.slice(0, eq) : word;
    const flag = declared.get(name);
    if (!flag) return err(`unknown option ${name} for "${spec.name}"`);
    if (flag.value === undefined) {
      if (eq > 0) return err(`${name} takes no value`);
      switches.add(name);
      continue;
    }
    const value = eq > 0 ? word.slice(eq + 1) : argv[i + 1];
    if (value === undefined || (eq < 0 && value.startsWith('--'))) return err(`${name} needs a value (${flag.value})`);
    if (eq < 0) i++;
    if (flag.choices && !flag.choices.includes(value)) return err(`${name} must be ${orList(flag.choices)} (got "${value}")`);
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  return ok({ one: (name) => values.get(name)?.at(-1), all: (name) => values.get(name) ?? [], has: (name) => switches.has(name) });
}

/** Reads and builds one command: its help, its value, or the message for the user. */
export function parseCommand<T>(spec: CommandSpec<T>, argv: readonly string[]): Parsed<T | typeof HELP> {
  const read = readFlags(spec, argv);
  if (!read.ok) return read;
  return read.value === HELP ? ok(HELP) : spec.build(read.value);
}

function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
}

const WIDTH = 100;
const FLAG_COLUMN = 27;

/** Words wrapped to `width`, each line after the first indented by `indent`. */
export function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join(`\n${indent}`);
}

/** `--approve ask|plan|all`, `--workspace DIR`, `--json`. */
function flagUsage(flag: FlagSpec): string {
  const value = flag.choices ? flag.choices.join('|') : flag.value;
  return `${flag.name}${value ? ` ${value}` : ''}${flag.repeatable ? ' …' : ''}`;
}

/** One flag's lines: its usage in the first column, its help beside it (below it when the usage is long). */
function flagLines(flag: FlagSpec): string {
  const usage = `  ${flagUsage(flag)}`;
  const pad = ' '.repeat(FLAG_COLUMN);
  const help = wrap(flag.help, WIDTH - FLAG_COLUMN, pad);
  return usage.length < FLAG_COLUMN - 1 ? `${usage.padEnd(FLAG_COLUMN)}${help}` : `${usage}\n${pad}${help}`;
}

/** The help of one command: usage, what it does, every flag it declares, and its notes. */
export function commandHelp(program: string, spec: CommandSpec<unknown>): string {
  return [
    `usage: ${program} ${spec.synopsis}`,
    '',
    `  ${wrap(spec.summary, WIDTH - 2, '  ')}`,
    ...(spec.flags.length > 0 ? ['', 'options:', ...spec.flags.map(flagLines)] : []),
    ...(spec.notes && spec.notes.length > 0 ? ['', ...spec.notes] : []),
  ].join('\n');
}
