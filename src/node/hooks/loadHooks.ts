/**
 * Every hook file a mission may use, read where it lives: the user's `~/.claude/settings.json` (their own
 * file: a link is followed, as their dotfiles often are) and the project's files through the Workspace
 * port (src/core/hooks/discover.ts). Parsing and trust are core's; this module only reads.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HookFile } from '../../core/contracts/hooks';
import type { Workspace } from '../../core/ports';
import { discoverProjectHooks } from '../../core/hooks/discover';
import { readHookFile } from '../../core/hooks/settings';
import { errorText } from '../../core/primitives/errorText';

const USER_HOOKS_SOURCE = '~/.claude/settings.json';
const MAX_USER_FILE_BYTES = 1024 * 1024;

/** The user's own hooks (undefined: no such file). */
function readUserHooks(home: string, platform: NodeJS.Platform = process.platform): HookFile | undefined {
  const path = join(home, '.claude', 'settings.json');
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > MAX_USER_FILE_BYTES)
      return { source: USER_HOOKS_SOURCE, origin: 'user', hash: '', hooks: [], notes: [`${USER_HOOKS_SOURCE}: not read — it is ${size} bytes`] };
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { source: USER_HOOKS_SOURCE, origin: 'user', hash: '', hooks: [], notes: [`${USER_HOOKS_SOURCE}: not read — ${errorText(error)}`] };
  }
  return readHookFile({ text, source: USER_HOOKS_SOURCE, origin: 'user', format: 'claude', platform });
}

/** The user's file first, then the project's in their fixed order. `home` undefined: no user file is read. */
export async function loadHookFiles(workspace: Workspace, home: string | undefined, platform: NodeJS.Platform = process.platform): Promise<HookFile[]> {
  const user = home ? readUserHooks(home, platform) : undefined;
  return [...(user ? [user] : []), ...(await discoverProjectHooks(workspace, platform))];
}
