/**
 * Which program a command really runs. An approval names a program (`git add src/feature.js`): that is the
 * one that runs, never one a step could have written — with a workspace folder on PATH (direnv's
 * `PATH_add bin`), a planted `bin/git` would otherwise run in place of git, in the sandbox or, with the
 * sandbox off, on the host. Pure, over the policy's port. In order:
 *   1. a program named with a slash (`./scripts/build.sh`, `bin/tool`, `/usr/bin/git`) runs what it names,
 *      as the approval shows it;
 *   2. a bare name is looked up on the command's PATH as execvp would, except that every entry inside the
 *      workspace — by its real path, a relative entry (the working folder) included — is passed over;
 *   3. the first executable found is the program, by its absolute path (what the card, the trace and the
 *      runner use); a workspace entry passed over on the way is named;
 *   4. found only inside the workspace: refused, saying why and how to run it by its path instead;
 *   5. found nowhere: left as it is, and the command fails as it would anywhere (not found).
 * Windows resolves programs in its runner (windowsCommand.ts: absolute PATH entries, PATHEXT).
 */
import * as nodePath from 'node:path';
import type { PolicyFs } from '../ports';
import { isWithinNative } from '../primitives/paths';

export type ProgramResolution =
  /** `program`: the absolute path that runs (undefined: named with a slash, or found nowhere — as given). `passedOver`: a workspace file skipped on PATH. */
  { ok: true; program: string | undefined; passedOver?: string } | { ok: false; reason: string };

/** Whether an absolute PATH entry lies in the workspace, as spelled or by its real path. */
function inWorkspace(entry: string, roots: readonly string[], fs: PolicyFs): boolean {
  if (roots.some((r) => isWithinNative(entry, r))) return true;
  try {
    const real = fs.realpathSync(entry);
    return roots.some((r) => isWithinNative(real, r));
  } catch {
    return false; // not there: nothing on it can run
  }
}

/**
 * Resolves `name` on `pathValue` (the command's PATH) for a command run in `cwd` (absolute, inside the
 * workspace), in a workspace whose spellings are `roots` (the real root first). A relative PATH entry is
 * relative to `cwd`, so inside the workspace.
 */
export function resolveProgram(name: string, pathValue: string | undefined, cwd: string, roots: readonly string[], fs: PolicyFs): ProgramResolution {
  if (name.includes('/') || pathValue === undefined) return { ok: true, program: undefined };
  let passedOver: string | undefined;
  for (const raw of pathValue.split(':')) {
    const entry = nodePath.resolve(cwd, raw === '' ? '.' : raw);
    const candidate = nodePath.join(entry, name);
    if (!nodePath.isAbsolute(raw) || inWorkspace(entry, roots, fs)) {
      if (passedOver === undefined && fs.executableSync(candidate)) passedOver = candidate;
      continue;
    }
    if (fs.executableSync(candidate)) return { ok: true, program: candidate, ...(passedOver !== undefined ? { passedOver } : {}) };
  }
  if (passedOver === undefined) return { ok: true, program: undefined };
  const rel = nodePath.relative(roots[0] ?? cwd, passedOver);
  return {
    ok: false,
    reason: `\`${name}\` is found on PATH only inside the workspace (${rel}), where a step can write it: a program is never run by name from a workspace folder on PATH. Run it by its path (\`./${rel}\`), which the step's command allowlist must then name`,
  };
}
