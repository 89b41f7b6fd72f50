/**
 * Secrets git tracks. The sandbox hides a secret's file from commands (secrets.ts decides what is one), but
 * a secret git tracks is also in git's objects: `git show HEAD:.env`, `git log -p`, or a script reading
 * `.git/objects` prints it to any command of the mission — and command output reaches the model. That
 * cannot be hidden without hiding the repository, so it is said plainly and asked (mission/trackedSecrets.ts).
 * Pure: the tracked paths and a peek at their content are passed in.
 */
import { isSecret, type Peek } from './secrets';

/** Tracked paths that are secrets (what the sandbox would hide in the working tree), in git's order. */
export function trackedSecretFiles(tracked: readonly string[], peek: Peek, granted: (path: string) => boolean = () => false): string[] {
  return tracked.filter((path) => !path.startsWith('.plan-execute/') && !granted(path) && isSecret(path, peek).secret);
}

/** Names at most `max` of the files, then a count (a message stays short however many there are). */
function namedFiles(files: readonly string[], max = 12): string {
  return `${files.slice(0, max).join(', ')}${files.length > max ? ` and ${files.length - max} more` : ''}`;
}

/** What the mission says before its first command when git tracks secrets (never that they are hidden). */
export function trackedSecretsMessage(files: readonly string[]): string {
  const first = files[0] ?? '.env';
  return (
    `git tracks ${files.length === 1 ? 'a file that holds secrets' : `${files.length} files that hold secrets`}: ${namedFiles(files)}. ` +
    `The sandbox can keep ${files.length === 1 ? 'it' : 'them'} out of the working tree, but not out of git: git's history holds ${files.length === 1 ? 'it' : 'them'}, ` +
    `and any command of this mission can print ${files.length === 1 ? 'it' : 'them'} through git (\`git show HEAD:${first}\`, \`git log -p\`) — ` +
    `and what a command prints reaches the model.`
  );
}
