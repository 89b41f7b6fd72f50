/**
 * Paths the repository's own git config makes executable or trusted: `core.hooksPath` (a folder of hooks
 * the user's next `git commit` runs), `include.path` / `includeIf.*.path` (more config, which can name
 * programs), and the programs filter, diff and merge drivers, the fsmonitor, the pager, editors, signing
 * and credential helpers name. A step may not write them, whatever its edit globs say: what it planted
 * there would run on the host at the user's next git command. Pure: the config's text is passed in.
 */
import * as posix from 'node:path/posix';
import { pathBelow } from '../primitives/paths';

/** Keys whose value is a path git reads as config or hooks. */
const PATH_KEYS = [/^core\.hookspath$/, /^include\.path$/, /^includeif\..+\.path$/];
/** Keys whose value is a command line git runs. */
const COMMAND_KEYS = [
  /^filter\..+\.(clean|smudge|process)$/,
  /^diff\..+\.(textconv|command)$/,
  /^merge\..+\.driver$/,
  /^core\.(fsmonitor|sshcommand|editor|pager|askpass)$/,
  /^sequence\.editor$/,
  /^gpg(\..+)?\.program$/,
  /^credential(\..+)?\.helper$/,
  /^pager\..+$/,
  /^alias\..+$/,
  /^uploadpack\.packobjectshook$/,
];

/** `section.sub.key = value` pairs of a git config text (lower-cased keys; subsections kept as written). */
export function gitConfigEntries(text: string): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = [];
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (head) {
      section = head[2] !== undefined ? `${(head[1] ?? '').toLowerCase()}.${head[2]}` : (head[1] ?? '').toLowerCase();
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!kv || section === '') continue;
    let value = (kv[2] ?? 'true').replace(/\s[#;].*$/, '').trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    out.push({ key: `${section}.${(kv[1] ?? '').toLowerCase()}`, value });
  }
  return out;
}

/** Workspace-relative paths of the workspace's own files that its git config runs or reads as config. */
export function gitConfigCodePaths(configText: string | undefined, root: string): string[] {
  if (configText === undefined) return [];
  const out = new Set<string>();
  const inside = (abs: string): string | undefined => pathBelow(posix.normalize(abs), root);
  for (const { key, value } of gitConfigEntries(configText)) {
    if (PATH_KEYS.some((k) => k.test(key))) {
      // hooksPath is relative to the working tree; an include to the config file's folder (.git).
      const base = key === 'core.hookspath' ? root : posix.join(root, '.git');
      const rel = value.startsWith('~') ? undefined : inside(posix.isAbsolute(value) ? value : posix.join(base, value));
      if (rel) out.add(rel);
      continue;
    }
    if (!COMMAND_KEYS.some((k) => k.test(key))) continue;
    // Every word that names a path: `./scripts/clean.sh %f`, `sh tools/diff.sh` — relative to the working tree.
    for (const word of value.replace(/^!/, '').split(/\s+/)) {
      const w = word.replace(/^['"]|['"]$/g, '');
      if (!w.includes('/') || w.startsWith('~')) continue;
      const rel = inside(posix.isAbsolute(w) ? w : posix.join(root, w));
      if (rel) out.add(rel);
    }
  }
  return [...out].sort();
}
