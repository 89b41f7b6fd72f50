/**
 * Finds the project's hook files through the Workspace port (so both front ends read them the same way):
 * `.claude/settings.json`, `.claude/settings.local.json`, `.codex/hooks.json` and `.github/hooks/*.json`,
 * in that order. A file that is a link, not a regular file, or larger than the cap is listed in a note,
 * never read: hooks are repository code, and a settings file is not a way to read something else.
 */
import type { HookFile } from '../contracts/hooks';
import type { Workspace } from '../ports';
import { readHookFile, type HookFileFormat } from './settings';

/** A settings file larger than this is not read. */
const MAX_HOOK_FILE_BYTES = 256 * 1024;
/** `.github/hooks/*.json` files read at most. */
const MAX_GITHUB_FILES = 50;

const FIXED: { path: string; format: HookFileFormat }[] = [
  { path: '.claude/settings.json', format: 'claude' },
  { path: '.claude/settings.local.json', format: 'claude' },
  { path: '.codex/hooks.json', format: 'codex' },
];

async function readOne(workspace: Workspace, path: string, format: HookFileFormat, platform: NodeJS.Platform): Promise<HookFile | undefined> {
  const stat = await workspace.stat(path).catch(() => undefined);
  if (!stat) return undefined;
  const unread = (why: string): HookFile => ({ source: path, origin: 'project', hash: '', hooks: [], notes: [`${path}: not read — ${why}`] });
  if (stat.kind !== 'file') return unread(stat.kind === 'symlink' ? 'it is a link (hook files are read only as regular files)' : 'it is not a regular file');
  if (stat.size > MAX_HOOK_FILE_BYTES) return unread(`it is ${stat.size} bytes; the limit is ${MAX_HOOK_FILE_BYTES}`);
  const text = new TextDecoder().decode(await workspace.readFile(path));
  return readHookFile({ text, source: path, origin: 'project', format, platform });
}

export async function discoverProjectHooks(workspace: Workspace, platform: NodeJS.Platform): Promise<HookFile[]> {
  const files: HookFile[] = [];
  for (const f of FIXED) {
    const file = await readOne(workspace, f.path, f.format, platform);
    if (file) files.push(file);
  }
  const dir = await workspace.stat('.github/hooks').catch(() => undefined);
  if (dir?.kind === 'directory') {
    const names = (await workspace.readDir('.github/hooks'))
      .filter((e) => e.name.endsWith('.json'))
      .map((e) => e.name)
      .sort();
    for (const name of names.slice(0, MAX_GITHUB_FILES)) {
      const file = await readOne(workspace, `.github/hooks/${name}`, 'github', platform);
      if (file) files.push(file);
    }
    if (names.length > MAX_GITHUB_FILES)
      files.push({
        source: '.github/hooks',
        origin: 'project',
        hash: '',
        hooks: [],
        notes: [`.github/hooks: only the first ${MAX_GITHUB_FILES} files were read`],
      });
  }
  return files;
}
