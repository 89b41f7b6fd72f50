/** The product's own folder in a workspace (journals, the CLI's missions, staging layers). */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';

/** Our own folder in a workspace (hidden from every command; git ignores it through its own `.gitignore`). */
export const STORE_FOLDER = '.plan-execute';

/**
 * Makes the workspace's store folder (0700) with a `.gitignore` of `*` in it, as pytest does for its cache:
 * the user's `git add -A` never takes our journals, layers or traces, and no file of theirs is touched.
 */
export function ensureStoreFolder(root: string): string {
  const dir = nodePath.join(root, STORE_FOLDER);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A repository can ship `.plan-execute` as a link (to the home, say): our data never follows it.
  if (!fs.lstatSync(dir).isDirectory() || fs.realpathSync.native(dir) !== nodePath.join(fs.realpathSync.native(root), STORE_FOLDER)) {
    throw new Error(`${dir} is not a folder of the workspace's own (a link?): remove it, Plan & Execute keeps its store there`);
  }
  const ignore = nodePath.join(dir, '.gitignore');
  try {
    fs.writeFileSync(ignore, "# Plan & Execute's own store: never part of the repository.\n*\n", { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return dir;
}
