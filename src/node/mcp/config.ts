/**
 * The user's MCP server configuration, read the way the tools that own each file read it:
 *  - `.vscode/mcp.json` (VS Code): `{ "servers": { name: { "command", "args", "env" } | { "type": "http", "url", "headers" } } }`,
 *    JSON with comments and trailing commas;
 *  - `.mcp.json` (Claude Code and others): `{ "mcpServers": { name: … } }`, the same entries;
 *  - a `--mcp-config FILE` (either shape), and in VS Code the user's `mcp.servers` setting.
 * Later sources override earlier ones by name (said in a note). Variables: `${workspaceFolder}`,
 * `${userHome}`, and `${env:NAME}` — from the environment a source may see: a file in the repository sees
 * only the scrubbed environment commands get (never the API keys), the user's own file or settings the
 * whole environment. `${input:…}` (a value VS Code prompts for) cannot be asked here: such a server is
 * listed as needing input. Everything is parsed with zod; a file that does not parse is a note, never a crash.
 */
import { z } from 'zod';
import { errorText } from '../../core/primitives/errorText';
import { canonicalJson } from '../../core/primitives/canonicalJson';

const Text = z.string().max(10_000);

const StdioEntrySchema = z.object({
  type: z.literal('stdio').optional(),
  command: Text.min(1),
  args: z.array(z.union([Text, z.number()]).transform(String)).default([]),
  env: z
    .record(
      z.string(),
      z
        .union([Text, z.number(), z.boolean()])
        .nullable()
        .transform((v) => (v === null ? '' : String(v))),
    )
    .default({}),
  cwd: Text.optional(),
});

const HttpEntrySchema = z.object({
  type: z.enum(['http', 'streamable-http', 'streamableHttp', 'sse']),
  url: Text.min(1),
  headers: z.record(z.string(), Text).default({}),
});

const EntrySchema = z.union([HttpEntrySchema, StdioEntrySchema]);

const FileSchema = z.object({
  servers: z.record(z.string(), z.unknown()).optional(),
  mcpServers: z.record(z.string(), z.unknown()).optional(),
});

/** Where a configuration came from; decides which environment its `${env:…}` may read. */
export interface ConfigSource {
  /** Shown to the user: `.vscode/mcp.json`, `.mcp.json`, the --mcp-config path, `VS Code settings`. */
  label: string;
  /** True for the user's own configuration (a file named on the command line, user settings). */
  trusted: boolean;
}

export type ServerConfig =
  | { name: string; source: string; transport: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string; needs?: string }
  | { name: string; source: string; transport: 'http'; url: string; headers: Record<string, string>; needs?: string };

export interface ReadConfig {
  servers: ServerConfig[];
  notes: string[];
}

export interface Variables {
  workspaceFolder: string;
  userHome: string;
  /** The whole environment (for trusted sources). */
  env: Record<string, string | undefined>;
  /** The scrubbed environment (for files in the repository). */
  scrubbedEnv: Record<string, string>;
}

/** JSON with `//` and block comments and trailing commas, as VS Code's own files allow. */
export function parseJsonc(text: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else out += c;
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
}

/** Substitutes the variables a source may use; `needs` names what could not be had. */
function substitute(value: string, vars: Variables, source: ConfigSource, needs: string[]): string {
  return value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    if (name === 'workspaceFolder' || name === 'workspaceRoot') return vars.workspaceFolder;
    if (name === 'userHome') return vars.userHome;
    if (name.startsWith('env:')) {
      const key = name.slice(4);
      const v = source.trusted ? vars.env[key] : vars.scrubbedEnv[key];
      if (v === undefined) needs.push(`${whole} (${source.trusted ? 'not set' : 'a file in the repository sees only the scrubbed environment'})`);
      return v ?? '';
    }
    needs.push(`${whole} (${name.startsWith('input:') ? 'a value VS Code prompts for; not available here' : 'an unknown variable'})`);
    return '';
  });
}

function entryOf(name: string, raw: unknown, source: ConfigSource, vars: Variables, notes: string[]): ServerConfig | undefined {
  const parsed = EntrySchema.safeParse(raw);
  if (!parsed.success) {
    notes.push(`${source.label}: server "${name}" left out: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`).join('; ')}`);
    return undefined;
  }
  const needs: string[] = [];
  const sub = (v: string): string => substitute(v, vars, source, needs);
  const e = parsed.data;
  if ('url' in e) {
    if (e.type === 'sse') {
      notes.push(`${source.label}: server "${name}" left out: the legacy SSE transport is not supported (use streamable HTTP, "type": "http")`);
      return undefined;
    }
    const headers = Object.fromEntries(Object.entries(e.headers).map(([k, v]) => [k, sub(v)]));
    const out: ServerConfig = { name, source: source.label, transport: 'http', url: sub(e.url), headers };
    return needs.length > 0 ? { ...out, needs: needs.join(', ') } : out;
  }
  const env = Object.fromEntries(Object.entries(e.env).map(([k, v]) => [k, sub(v)]));
  const out: ServerConfig = {
    name,
    source: source.label,
    transport: 'stdio',
    command: sub(e.command),
    args: e.args.map(sub),
    env,
    ...(e.cwd ? { cwd: sub(e.cwd) } : {}),
  };
  return needs.length > 0 ? { ...out, needs: needs.join(', ') } : out;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The servers of one configuration's text (either shape), with notes for what could not be used. */
export function serversIn(text: string, source: ConfigSource, vars: Variables): ReadConfig {
  const notes: string[] = [];
  let json: unknown;
  try {
    json = parseJsonc(text);
  } catch (error) {
    return { servers: [], notes: [`${source.label} is not valid JSON: ${errorText(error)}`] };
  }
  const file = FileSchema.safeParse(json);
  if (!file.success || (!file.data.servers && !file.data.mcpServers)) {
    return { servers: [], notes: [`${source.label} has neither "servers" (VS Code's shape) nor "mcpServers": no server read from it`] };
  }
  const servers: ServerConfig[] = [];
  for (const [name, raw] of Object.entries({ ...file.data.mcpServers, ...file.data.servers })) {
    if (!NAME.test(name)) {
      notes.push(`${source.label}: server "${name.slice(0, 80)}" left out: a server name uses letters, digits, "_", "." and "-" (up to 64)`);
      continue;
    }
    const entry = entryOf(name, raw, source, vars, notes);
    if (entry) servers.push(entry);
  }
  return { servers, notes };
}

/** Several sources in order: a later one's server replaces an earlier one of the same name (said). */
export function mergeConfigs(configs: readonly ReadConfig[]): ReadConfig {
  const byName = new Map<string, ServerConfig>();
  const notes: string[] = [];
  for (const c of configs) {
    notes.push(...c.notes);
    for (const s of c.servers) {
      const earlier = byName.get(s.name);
      if (earlier) notes.push(`server "${s.name}" from ${s.source} replaces the one from ${earlier.source}`);
      byName.set(s.name, s);
    }
  }
  return { servers: [...byName.values()], notes };
}

/**
 * The servers of a settings value that a configuration file does not already hold, entry for entry. VS Code
 * merges `.vscode/mcp.json` into the workspace's `mcp` settings, so a server read from that file shows up
 * there again: left here, it would be labelled by the settings instead of the file it came from (and said
 * to replace itself).
 */
export function serversNotInFile(servers: Record<string, unknown>, fileText: string | undefined): Record<string, unknown> {
  let inFile: Record<string, unknown> = {};
  try {
    const parsed = FileSchema.safeParse(fileText === undefined ? {} : parseJsonc(fileText));
    if (parsed.success) inFile = { ...parsed.data.mcpServers, ...parsed.data.servers };
  } catch {
    // A file that does not parse holds no server: every settings entry keeps its settings label.
  }
  return Object.fromEntries(Object.entries(servers).filter(([name, entry]) => !(name in inFile) || canonicalJson(inFile[name]) !== canonicalJson(entry)));
}
