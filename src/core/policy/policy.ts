/**
 * The permission policy for one step: what its executor (or verifier) may read, write, delete and run.
 * Default deny: an action is allowed only when it passes every rule below, evaluated IN THIS ORDER, and the
 * first refusal wins (its `rule` names it, so the planner can ask for exactly that authority):
 *
 *   1. action.invalid          the action does not have the documented shape.
 *   2. role.verifier_read_only the verifier writes nothing and deletes nothing, whatever the globs say.
 *   — commands (`run`) —
 *   3. command.*               tokenizer refusals (chaining, pipes, redirection, substitution, globs,
 *                              control characters, ANSI escapes, assignment prefixes…), see commandParse.ts.
 *   4. command.wrapper / command.eval_flag / command.not_allowlisted
 *                              argv matched against the step's `commands` patterns, see commandPolicy.ts.
 *   5. cwd path rules          the working directory goes through rules 6–7 and must be a directory.
 *   — paths (`read`, `write`, `delete`) —
 *   6. path.*                  syntax, normalisation and realpath containment, see workspacePath.ts.
 *   7. path.root               the workspace root itself is never a write or delete target.
 *   8. ignore.planexecuteignore the user's ignore file (gitignore syntax) hides paths from reads and writes.
 *   9. sensitive.<name>        real secrets (secrets.ts: .env, private keys, credential stores and configs
 *                              that hold a credential — not templates, fixtures, encrypted files or code
 *                              merely named so) for every kind; protected files (.git, .vscode,
 *                              node_modules, our own config, and what the repository's git config
 *                              runs or includes: `sensitive.git_config_code`) for writes and deletes —
 *                              unless an `allowSensitive` glob the user granted for the mission matches.
 *  10. constraint.forbid_paths writes and deletes inside a path a mission constraint forbids (a rule from the
 *                              project's instructions, made a check in the plan): constraints only narrow.
 *  11. authority.read / authority.edit
 *                              reads must match the step's `read` or `edit` globs; writes and deletes its
 *                              `edit` globs. A directory is readable when a read glob could match inside it.
 *  Rules 8–11 test both the lexical path and its symlink-resolved twin.
 * Globs are picomatch with `dot: true` (a `src/**` grant covers `src/.eslintrc`; the sensitive rules, not
 * dot-file blindness, protect what matters). Sensitive globs also match case-insensitively.
 */
import picomatch from 'picomatch';
import ignore from 'ignore';
import { z } from 'zod';
import type { Authority } from '../contracts/plan';
import { matchAllowlist, parsePattern, type CommandPattern } from './commandPolicy';
import { parseCommand } from './commandParse';
import type { PolicyFs } from '../ports';
import { isSecret, isSecretFolder, PEEK_BYTES } from './secrets';
import { PROTECTED_RULES } from './sensitivePaths';
import { checkPathSyntax, resolveWorkspacePath } from './workspacePath';
import type { PolicyDenial } from './denial';
import { gitConfigCodePaths } from './gitConfigCode';
import * as nodePath from 'node:path';
import { pathsOverlap } from '../primitives/paths';

export type PolicyAction = { kind: 'read' | 'write' | 'delete'; path: string } | { kind: 'run'; command: string; cwd: string };

export type PolicyDecision = { allowed: true } | { allowed: false; reason: string; rule: string };

/** What an allowed action resolved to (used by the tools; `checkAction` returns only the decision). */
export type ResolvedAction =
  | {
      allowed: true;
      kind: 'read' | 'write' | 'delete';
      rel: string;
      abs: string;
      exists: boolean;
      isDirectory: boolean;
      /** `rel` with symlinks resolved (inside the workspace). */ realRel: string;
    }
  | { allowed: true; kind: 'run'; argv: string[]; cwdRel: string; cwdAbs: string; pattern: string }
  | { allowed: false; reason: string; rule: string };

export interface PolicyOptions {
  role?: 'executor' | 'verifier';
  /** Sensitive-path globs the user explicitly allowed for this mission. */
  allowSensitive?: string[];
  /** Text of `.planexecuteignore`; when omitted it is read from the workspace root. */
  ignoreText?: string | null;
  /** Paths the mission's constraints forbid to write (the plan's `forbid_paths` checks), each with its constraint. */
  forbidden?: readonly { constraint: string; globs: readonly string[] }[];
  /** The disk, through the port (src/node/nodePolicyFs.ts in both front ends, a fake in tests). */
  fs: PolicyFs;
}

export interface Policy {
  readonly root: string;
  /** Absolute spellings of the root an action may use (real path, and the path the caller gave). */
  readonly rootAliases: readonly string[];
  readonly stepId: string | null;
  readonly role: 'executor' | 'verifier';
  readonly authority: Readonly<Authority>;
  readonly allowSensitive: readonly string[];
  readonly fs: PolicyFs;
  readonly commandPatterns: readonly CommandPattern[];
  /** Allowlist entries that did not parse (reported, never matched). */
  readonly invalidPatterns: readonly string[];
  readonly ignored: (rel: string, isDirectory: boolean) => boolean;
  readonly readMatch: (rel: string) => boolean;
  readonly editMatch: (rel: string) => boolean;
  readonly readGlobBases: readonly string[];
  readonly allowSensitiveMatch: (rel: string) => boolean;
  /** Workspace paths the repository's git config runs or reads as config (gitConfigCode.ts): never written. */
  readonly gitCodePaths: readonly string[];
  /** The constraint that forbids writing `rel`, if one does. */
  readonly forbiddenBy: (rel: string) => string | undefined;
}

const PolicyActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.enum(['read', 'write', 'delete']), path: z.string() }),
  z.object({ kind: z.literal('run'), command: z.string(), cwd: z.string() }),
]);

const GLOB = { dot: true } as const;
const SENSITIVE_GLOB = { dot: true, nocase: true } as const;
const protectedMatchers = PROTECTED_RULES.map((r) => ({ name: r.name, match: picomatch(r.globs, SENSITIVE_GLOB) }));
const NEVER = (): boolean => false;

function matcher(globs: readonly string[], opts: picomatch.PicomatchOptions): (rel: string) => boolean {
  return globs.length === 0 ? NEVER : picomatch([...globs], opts);
}

export function policyFor(workspaceRoot: string, step: { id?: string; authority?: Partial<Authority> } | null, options: PolicyOptions): Policy {
  const fs = options.fs;
  const root = fs.realpathSync(nodePath.resolve(workspaceRoot));
  const authority: Authority = {
    read: step?.authority?.read ?? ['**'],
    edit: step?.authority?.edit ?? [],
    commands: step?.authority?.commands ?? [],
    network: step?.authority?.network ?? false,
    mcp: step?.authority?.mcp ?? [],
  };
  const commandPatterns: CommandPattern[] = [];
  const invalidPatterns: string[] = [];
  for (const source of authority.commands) {
    const p = parsePattern(source);
    if ('error' in p) invalidPatterns.push(source);
    else commandPatterns.push(p);
  }
  const ignoreText = options.ignoreText === undefined ? fs.readTextSync(nodePath.join(root, '.planexecuteignore')) : options.ignoreText;
  const ig = ignoreText ? ignore().add(ignoreText) : null;
  const allowSensitive = options.allowSensitive ?? [];
  const gitDir = fs.lstatSync(nodePath.join(root, '.git'));
  const gitCodePaths = gitDir?.isDirectory() ? gitConfigCodePaths(fs.readTextSync(nodePath.join(root, '.git', 'config')), root) : [];
  return {
    root,
    rootAliases: [...new Set([root, nodePath.resolve(workspaceRoot)])],
    stepId: step?.id ?? null,
    role: options.role ?? 'executor',
    authority,
    allowSensitive,
    fs,
    commandPatterns,
    invalidPatterns,
    ignored: (rel, isDirectory) => {
      if (!ig || rel === '.') return false;
      try {
        return ig.ignores(rel) || (isDirectory && ig.ignores(rel + '/'));
      } catch {
        return true; // a path the ignore library cannot judge is not one we should touch
      }
    },
    readMatch: matcher([...authority.read, ...authority.edit], GLOB),
    editMatch: matcher(authority.edit, GLOB),
    readGlobBases: [...authority.read, ...authority.edit].map((g) => picomatch.scan(g).base),
    allowSensitiveMatch: matcher(allowSensitive, SENSITIVE_GLOB),
    gitCodePaths,
    forbiddenBy: forbiddenMatcher(options.forbidden ?? []),
  };
}

function forbiddenMatcher(forbidden: readonly { constraint: string; globs: readonly string[] }[]): (rel: string) => string | undefined {
  const rules = forbidden.map((f) => ({ constraint: f.constraint, match: matcher(f.globs, GLOB) }));
  return (rel) => rules.find((r) => r.match(rel) || r.match(`${rel}/x`))?.constraint;
}

function deny(rule: string, reason: string): { allowed: false; reason: string; rule: string } {
  return { allowed: false, rule, reason };
}

/** A directory can be listed when a read glob matches it or could match something below it. */
function directoryReadable(policy: Policy, rel: string): boolean {
  if (policy.readMatch(rel)) return true;
  return policy.readGlobBases.some((base) => base === '.' || rel === '.' || pathsOverlap(base, rel));
}

/**
 * Rules 8–9 on their own: hidden (`.planexecuteignore`, secrets) for every kind, protected (and what the
 * repository's git config runs) for writes — unless the user allowed the path for the mission. Also what
 * a link may not lead to (linkTargets.ts), judged as a write there.
 */
export function sensitiveDenial(policy: Policy, rel: string, isDirectory: boolean, writing: boolean): PolicyDenial | undefined {
  if (policy.ignored(rel, isDirectory)) return deny('ignore.planexecuteignore', `${rel} is excluded by .planexecuteignore`);
  if (policy.allowSensitiveMatch(rel)) return undefined;
  const peek = (r: string): string | undefined => policy.fs.readTextSync(nodePath.join(policy.root, r), PEEK_BYTES);
  const secret = isDirectory ? isSecretFolder(rel) : isSecret(rel, peek);
  if (secret.secret)
    return deny(
      `sensitive.${secret.rule ?? 'secret'}`,
      `${rel} may hold secrets (${secret.rule ?? 'secret'}); it is refused unless you allow it for this mission`,
    );
  if (!writing) return undefined;
  for (const s of protectedMatchers)
    if (s.match(rel)) return deny(`sensitive.${s.name}`, `${rel} is protected (${s.name}); writes are refused unless you allow it for this mission`);
  if (policy.gitCodePaths.some((c) => pathsOverlap(rel, c))) {
    return deny(
      'sensitive.git_config_code',
      `${rel} is run or read as config by this repository's git config (hooks path, include, a filter or diff driver…); writes are refused unless you allow it for this mission`,
    );
  }
  return undefined;
}

function checkPathRules(policy: Policy, kind: 'read' | 'write' | 'delete', rel: string, isDirectory: boolean): PolicyDecision {
  const writing = kind !== 'read';
  if (writing && rel === '.') return deny('path.root', 'the workspace root itself cannot be written or deleted');
  const sensitive = sensitiveDenial(policy, rel, isDirectory, writing);
  if (sensitive) return deny(sensitive.rule, sensitive.reason);
  if (writing) {
    const constraint = policy.forbiddenBy(rel);
    if (constraint !== undefined) return deny('constraint.forbid_paths', `${rel} may not be written: the mission's constraint "${constraint}" forbids it`);
    if (!policy.editMatch(rel)) return deny('authority.edit', `${rel} is outside the step's edit globs (${policy.authority.edit.join(', ') || 'none'})`);
  } else if (isDirectory ? !directoryReadable(policy, rel) : !policy.readMatch(rel)) {
    return deny('authority.read', `${rel} is outside the step's read globs (${policy.authority.read.join(', ') || 'none'})`);
  }
  return { allowed: true };
}

/** Full resolution of an action; `checkAction` is this without the details. */
export function resolveAction(policy: Policy, action: unknown): ResolvedAction {
  const parsed = PolicyActionSchema.safeParse(action);
  if (!parsed.success) return deny('action.invalid', 'the action does not have a known shape');
  const a = parsed.data;
  if (policy.role === 'verifier' && (a.kind === 'write' || a.kind === 'delete')) {
    return deny('role.verifier_read_only', 'the verifier is read-only: it may not write or delete files');
  }
  if (a.kind === 'run') {
    const cmd = parseCommand(a.command);
    if (!cmd.ok) return deny(cmd.error.rule, cmd.error.reason);
    const match = matchAllowlist(cmd.value.argv, [...policy.commandPatterns]);
    if (!match.ok) return deny(match.error.rule, match.error.reason);
    const cwdResolution = resolveWorkspacePath(policy.root, a.cwd === '' ? '.' : a.cwd, policy.fs, policy.rootAliases);
    if (!cwdResolution.ok) return deny(cwdResolution.error.rule, `working directory: ${cwdResolution.error.reason}`);
    const cwd = cwdResolution.value;
    if (!cwd.exists || !cwd.isDirectory) return deny('path.cwd_not_directory', 'the working directory does not exist or is not a directory');
    return { allowed: true, kind: 'run', argv: cmd.value.argv, cwdRel: cwd.rel, cwdAbs: cwd.abs, pattern: match.value.source };
  }
  const resolution = resolveWorkspacePath(policy.root, a.path, policy.fs, policy.rootAliases);
  if (!resolution.ok) return deny(resolution.error.rule, resolution.error.reason);
  const resolved = resolution.value;
  for (const rel of new Set([resolved.rel, resolved.realRel])) {
    const d = checkPathRules(policy, a.kind, rel, resolved.isDirectory);
    if (!d.allowed) return d;
  }
  return {
    allowed: true,
    kind: a.kind,
    rel: resolved.rel,
    abs: resolved.abs,
    exists: resolved.exists,
    isDirectory: resolved.isDirectory,
    realRel: resolved.realRel,
  };
}

/**
 * The verdict on writing or removing the entry AT a path — a link itself, never what it points to: the
 * parent folder is resolved (rule 6), the last component taken as named, then rules 7–11 on both spellings.
 * For a link a command made (commandEffects.ts), where `resolveAction` would judge the link's target
 * instead; where the link leads is judged by linkTargets.ts.
 */
export function checkEntry(policy: Policy, kind: 'write' | 'delete', path: string): PolicyDecision {
  if (policy.role === 'verifier') return deny('role.verifier_read_only', 'the verifier is read-only: it may not write or delete files');
  const syntax = checkPathSyntax(path, policy.rootAliases);
  if (!syntax.ok) return deny(syntax.error.rule, syntax.error.reason);
  const rel = syntax.value;
  if (rel === '.') return deny('path.root', 'the workspace root itself cannot be written or deleted');
  const at = rel.lastIndexOf('/');
  const parent = resolveWorkspacePath(policy.root, at === -1 ? '.' : rel.slice(0, at), policy.fs, policy.rootAliases);
  if (!parent.ok) return deny(parent.error.rule, parent.error.reason);
  const name = rel.slice(at + 1);
  const realRel = parent.value.realRel === '.' ? name : `${parent.value.realRel}/${name}`;
  for (const r of new Set([rel, realRel])) {
    const d = checkPathRules(policy, kind, r, false);
    if (!d.allowed) return d;
  }
  return { allowed: true };
}

export function checkAction(policy: Policy, action: PolicyAction): PolicyDecision {
  const r = resolveAction(policy, action);
  return r.allowed ? { allowed: true } : { allowed: false, reason: r.reason, rule: r.rule };
}

/** Whether a path (already inside the workspace, workspace-relative) may be read — for filtering listings. */
export function isReadable(policy: Policy, rel: string, isDirectory: boolean): boolean {
  return checkPathRules(policy, 'read', rel, isDirectory).allowed;
}
