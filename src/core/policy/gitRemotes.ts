/**
 * A remote that is a folder on this machine (`git remote add origin ../origin.git`, `file:///srv/git/app.git`)
 * lies outside the workspace, where the sandbox hides everything (a neighbour's checkout, the home). A step
 * whose commands may fetch (`git fetch`, `pull`, `remote update`, `ls-remote`) is shown such a remote again,
 * read-only: the repository's own config names it, so fetching from it is what the user set up. Only git's
 * data is shown — a bare repository whole, a checkout's `.git` folder, never its working tree (where a
 * `.env` of that checkout would lie). Pushing there stays impossible (nothing outside the workspace is
 * writable), and a remote in or at the home, or where credentials live, is never shown. Pure.
 */
import * as posix from 'node:path/posix';
import type { HostFacts } from '../contracts/sandbox';
import { isWithin, pathsOverlap } from '../primitives/paths';
import { gitConfigEntries } from './gitConfigCode';

/** Whether an allowlist pattern may run a git subcommand that reads a remote (`git *` included). */
function mayFetch(pattern: string): boolean {
  const words = pattern.trim().split(/\s+/);
  if (words[0] !== 'git') return false;
  const sub = words.slice(1).find((w) => !w.startsWith('-'));
  return sub === undefined || sub === '*' || ['fetch', 'pull', 'remote', 'ls-remote'].includes(sub);
}

/** The folder a remote URL names, absolute; undefined for a URL of another machine (`https://`, `host:path`). */
function folderOf(url: string, root: string): string | undefined {
  if (url.startsWith('file://')) return posix.normalize(decodeURIComponent(url.slice('file://'.length)));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[^/]*:/.test(url)) return undefined;
  return posix.resolve(root, url.startsWith('~') ? '/nonexistent' : url);
}

/** Folders to show read-only for the step's fetches: each local remote's git data (see above). */
export function localRemotesShown(
  root: string,
  commands: readonly string[],
  hiddenOutside: readonly string[],
  secretAreas: readonly string[],
  host: HostFacts,
): string[] {
  if (!host.readText || !commands.some(mayFetch)) return [];
  const config = host.readText(posix.join(root, '.git', 'config'));
  if (config === undefined) return [];
  const out = new Set<string>();
  for (const { key, value } of gitConfigEntries(config)) {
    if (!/^remote\..+\.url$/.test(key)) continue;
    const folder = folderOf(value, root);
    if (folder === undefined || folder === '/' || isWithin(folder, root) || isWithin(root, folder)) continue;
    if (host.home !== undefined && (isWithin(host.home, folder) || secretAreas.some((a) => pathsOverlap(folder, posix.join(host.home as string, a))))) continue;
    if (!hiddenOutside.some((h) => isWithin(folder, h))) continue; // visible anyway
    // A bare repository has its HEAD at the top; a checkout keeps its data in `.git`.
    const gitData = host.readText(posix.join(folder, 'HEAD')) !== undefined ? folder : posix.join(folder, '.git');
    if (host.readText(posix.join(gitData, 'HEAD')) !== undefined) out.add(gitData);
  }
  return [...out].sort();
}
