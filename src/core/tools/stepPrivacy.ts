/**
 * What a staged step may keep for itself — in its layer, seen by its later commands and its verifier,
 * never by the workspace — instead of applying or refusing it. Decided by the USER's rules, read once per
 * step attempt before the attempt writes anything (`snapshotPrivacy`), never by what a command writes:
 *   1. a path git tracks (the index, as the attempt began) is never private, nor a folder holding one —
 *      so a `.gitignore` naming tracked `package.json` or `test/` cannot turn a forged harness into "the
 *      step's own" (it is judged as any other change: applied within the edit globs, else refused);
 *   2. tool caches and dependency folders (stagedJudge.ts `isToolCache`: `node_modules`, `__pycache__`,
 *      `.pytest_cache`, `*.tsbuildinfo`…) are private wherever they are;
 *   3. what git ignored as the attempt began: the workspace's `.gitignore` files, `.git/info/exclude` and
 *      the user's global excludes, as they were then — a `.gitignore` a command (or the step's own editor)
 *      writes later changes nothing here. The reason names the file and the pattern.
 */
import type { StepToolsContext } from '../ports';
import { gitIgnoreReason, ignoredText, ignoreFilesIn, type IgnoreFile } from '../policy/buildOutputs';
import type { HostFacts } from '../policy/sandboxSpec';
import { scanPrune, STAGED_SCOPE } from '../policy/sandboxSpec';
import type { Policy } from '../policy/policy';
import { isToolCache } from './stagedJudge';
import { SCAN_LIMIT } from './commandEffects';

/** Why a path is private to the step (a sentence), or undefined when it is not. */
export type StepPrivacy = (path: string, isDirectory: boolean) => string | undefined;

/** The facts privacy is decided from: the user's ignore files as they were, and what git tracked. */
export interface PrivacyFacts {
  ignoreFiles: IgnoreFile[];
  /** `.git/info/exclude`, then the global excludes (each named), as they were. */
  excludes: IgnoreFile[];
  /** Paths in git's index (tracked); empty outside a repository of the workspace's own. */
  tracked: readonly string[];
}

/** The privacy decision from its facts (pure; tested as a table). */
export function privacyFrom(facts: PrivacyFacts): StepPrivacy {
  const tracked = new Set(facts.tracked);
  const holdsTracked = new Set<string>();
  for (const p of facts.tracked) for (let at = p.lastIndexOf('/'); at > 0; at = p.lastIndexOf('/', at - 1)) holdsTracked.add(p.slice(0, at));
  const ignored = gitIgnoreReason(facts.ignoreFiles, facts.excludes);
  return (path, isDirectory) => {
    if (tracked.has(path) || holdsTracked.has(path)) return undefined;
    if (isToolCache(path)) return 'a tool cache or dependency folder';
    const by = ignored(path, isDirectory);
    return by === undefined ? undefined : ignoredText(by);
  };
}

/**
 * Reads the facts as the workspace holds them now: call it before the step attempt writes anything (the
 * step's tools do, on their first write or command). One listing of the workspace for its `.gitignore`
 * files, and git's index through the workspace's git record.
 */
export async function snapshotPrivacy(ctx: StepToolsContext, policy: Policy, host: HostFacts): Promise<StepPrivacy> {
  const read = host.readIgnoreFile;
  const ignoreFiles: IgnoreFile[] = [];
  const excludes: IgnoreFile[] = [];
  if (read) {
    const listing = await ctx.workspace.scan({ prune: scanPrune(policy, STAGED_SCOPE, true), limit: SCAN_LIMIT, detail: () => false });
    for (const rel of ignoreFilesIn(listing.entries)) {
      const text = read(`${policy.root}/${rel}`);
      const dir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
      if (text !== undefined) ignoreFiles.push({ dir, text, name: rel });
    }
    const exclude = read(`${policy.root}/.git/info/exclude`);
    if (exclude !== undefined) excludes.push({ dir: '', text: exclude, name: '.git/info/exclude' });
  }
  const global = host.globalExcludes?.();
  if (global !== undefined) excludes.push({ dir: '', text: global, name: 'your global git excludes' });
  const mark = ctx.workspace.gitMark ? await ctx.workspace.gitMark() : null;
  return privacyFrom({ ignoreFiles, excludes, tracked: mark ? Object.keys(mark.staged) : [] });
}
