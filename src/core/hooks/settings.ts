/**
 * Reads one settings file's hooks (pure: the front end reads the bytes). Three shapes, all Claude Code's
 * event → matcher group → command nesting:
 *  - `claude`: `.claude/settings.json`, `.claude/settings.local.json`, `~/.claude/settings.json` —
 *    `{"hooks": {"PreToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "…",
 *    "timeout": 60}]}]}}`; other settings keys are ignored;
 *  - `codex`: `.codex/hooks.json` — the same shape (`statusMessage` is ignored);
 *  - `github`: `.github/hooks/*.json` — VS Code's shape: the same, or a flat command in place of a matcher
 *    group (`{"type": "command", "command": "…", "linux": "…", "osx": "…", "timeout": 30, "env": {…}}`,
 *    every tool), with Copilot's `bash` and `timeoutSec`, and its camelCase event names read as Claude's.
 * A file is never all-or-nothing: each entry is read on its own, and what is not used is a note naming
 * the file, the event and why. Malformed JSON is a note too, never a throw.
 */
import { z } from 'zod';
import type { Hook, HookEvent, HookFile, HookOrigin } from '../contracts/hooks';
import { HookEventSchema } from '../contracts/hooks';
import { sha256Hex } from '../primitives/hash';
import { matcherError } from './matching';

export type HookFileFormat = 'claude' | 'codex' | 'github';

export interface HookFileInput {
  text: string;
  /** As shown to the user: workspace-relative, or `~/.claude/settings.json`. */
  source: string;
  origin: HookOrigin;
  format: HookFileFormat;
  /** Picks a `.github/hooks` entry's `linux` / `osx` command. */
  platform: NodeJS.Platform;
}

/** Seconds a hook may run when its entry names no timeout (Claude Code's and Codex's default; VS Code's is 30). */
const DEFAULT_TIMEOUT_SEC: Record<HookFileFormat, number> = { claude: 600, codex: 600, github: 30 };

/**
 * The longest a hook may run: a day. A longer one is cut to it (with a note): past about 24.8 days a
 * timer fires at once, and a policy hook would then time out before it could deny anything.
 */
const MAX_TIMEOUT_SEC = 86_400;

/** Copilot's camelCase names, read as Claude's (as VS Code reads them). */
const CAMEL_EVENTS: Record<string, HookEvent> = {
  preToolUse: 'PreToolUse',
  postToolUse: 'PostToolUse',
  userPromptSubmitted: 'UserPromptSubmit',
  sessionStart: 'SessionStart',
  agentStop: 'Stop',
};

const TopSchema = z.object({ hooks: z.record(z.string(), z.unknown()).optional() }).passthrough();
const Seconds = z.number().positive().finite();
const CommandSchema = z
  .object({
    type: z.string(),
    command: z.string().optional(),
    timeout: Seconds.optional(),
    failClosed: z.boolean().optional(),
    // .github/hooks (VS Code, Copilot CLI)
    bash: z.string().optional(),
    linux: z.string().optional(),
    osx: z.string().optional(),
    timeoutSec: Seconds.optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
  })
  .passthrough();
const GroupSchema = z.object({ matcher: z.string().optional(), hooks: z.array(z.unknown()) }).passthrough();

type Command = z.infer<typeof CommandSchema>;

function issues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(entry)'}: ${i.message}`).join('; ');
}

function eventOf(name: string, format: HookFileFormat): HookEvent | undefined {
  const direct = HookEventSchema.safeParse(name);
  if (direct.success) return direct.data;
  return format === 'github' ? CAMEL_EVENTS[name] : undefined;
}

/** The command line an entry runs here: the platform's own (`linux`, `osx`) first, then `command`, then Copilot's `bash`. */
function commandLine(c: Command, platform: NodeJS.Platform): string | undefined {
  const own = platform === 'linux' ? c.linux : platform === 'darwin' ? c.osx : undefined;
  return [own, c.command, c.bash].find((s) => s !== undefined && s.trim() !== '');
}

export function readHookFile(input: HookFileInput): HookFile {
  const { source, origin, format } = input;
  const file: HookFile = { source, origin, hash: sha256Hex(input.text), hooks: [], notes: [] };
  let json: unknown;
  try {
    json = JSON.parse(input.text);
  } catch {
    // Never the parser's message: it quotes the text, and a settings file may hold anything.
    file.notes.push(`${source}: not used — it is not valid JSON`);
    return file;
  }
  const top = TopSchema.safeParse(json);
  if (!top.success) {
    file.notes.push(`${source}: not used — ${issues(top.error)}`);
    return file;
  }
  for (const [name, entries] of Object.entries(top.data.hooks ?? {})) {
    const event = eventOf(name, format);
    if (!event) {
      file.notes.push(`${source}: ${name} hooks not used — Plan & Execute fires PreToolUse, PostToolUse, UserPromptSubmit, SessionStart and Stop`);
      continue;
    }
    if (!Array.isArray(entries)) {
      file.notes.push(`${source}: ${name} not used — it must be a list of matcher groups`);
      continue;
    }
    entries.forEach((entry, i) => readEntry(input, file, event, `${name}[${i}]`, entry));
  }
  return file;
}

/** One element of an event's list: a matcher group, or (`.github/hooks`) a flat command for every tool. */
function readEntry(input: HookFileInput, file: HookFile, event: HookEvent, where: string, entry: unknown): void {
  const group = GroupSchema.safeParse(entry);
  if (group.success) {
    const matcher = group.data.matcher ?? '';
    const bad = matcherError(matcher);
    if (bad) {
      file.notes.push(`${input.source}: ${where} not used — its matcher ${JSON.stringify(matcher)} is not a regular expression (${bad})`);
      return;
    }
    group.data.hooks.forEach((c, j) => readCommand(input, file, event, matcher, `${where}.hooks[${j}]`, c));
    return;
  }
  if (input.format === 'github' && typeof entry === 'object' && entry !== null && 'type' in entry) {
    readCommand(input, file, event, '', where, entry);
    return;
  }
  file.notes.push(`${input.source}: ${where} not used — ${issues(group.error)}`);
}

function readCommand(input: HookFileInput, file: HookFile, event: HookEvent, matcher: string, where: string, raw: unknown): void {
  const parsed = CommandSchema.safeParse(raw);
  if (!parsed.success) {
    file.notes.push(`${input.source}: ${where} not used — ${issues(parsed.error)}`);
    return;
  }
  const c = parsed.data;
  if (c.type !== 'command') {
    file.notes.push(`${input.source}: ${where} not used — only "command" hooks run here (this one is "${c.type}")`);
    return;
  }
  const command = commandLine(c, input.platform);
  if (command === undefined) {
    file.notes.push(`${input.source}: ${where} not used — it names no command for this platform`);
    return;
  }
  if (c.cwd !== undefined && c.cwd !== '.' && c.cwd !== '') file.notes.push(`${input.source}: ${where}: "cwd" is ignored — hooks run at the workspace root`);
  const asked = c.timeout ?? c.timeoutSec ?? DEFAULT_TIMEOUT_SEC[input.format];
  if (asked > MAX_TIMEOUT_SEC) file.notes.push(`${input.source}: ${where}: its timeout of ${asked} s is cut to ${MAX_TIMEOUT_SEC} s (a day)`);
  const hook: Hook = {
    event,
    matcher,
    command,
    timeoutSec: Math.min(asked, MAX_TIMEOUT_SEC),
    failClosed: c.failClosed === true,
    source: input.source,
    origin: input.origin,
    env: c.env ?? {},
  };
  file.hooks.push(hook);
}
