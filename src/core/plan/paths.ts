/**
 * Workspace-relative path and glob hygiene for plans. A plan's authority globs and evidence paths must
 * stay inside the workspace; this module decides that syntactically (no file system), so it can run
 * before anything is approved. The sandbox's policy re-checks every real path at run time — this is the
 * early, explainable refusal, not the only line of defence.
 */

/** Why a workspace-relative path or glob is unacceptable, or null when it is fine. */
export function workspacePathProblem(value: string, what: 'glob' | 'path'): string | null {
  const shown = JSON.stringify(value);
  if (value.trim() === '') return `the ${what} is empty`;
  if (value.includes('\\')) {
    return `${shown} contains a backslash; use workspace-relative POSIX paths with "/" separators`;
  }
  if (/^[A-Za-z]:/.test(value)) return `${shown} is a drive-letter path; use a path relative to the workspace root`;
  if (value.startsWith('/')) return `${shown} is absolute; use a path relative to the workspace root`;
  if (value.startsWith('~')) return `${shown} points into a home directory; use a path relative to the workspace root`;
  if (value.includes('\0')) return `${shown} contains a NUL character`;
  const segments = value.split('/');
  if (segments.some((s) => s === '..')) return `${shown} uses ".." and could leave the workspace; name paths inside it`;
  // `{a,..}` or `@(..)` style escapes: a ".." reachable through glob alternation is still an escape.
  if (what === 'glob' && /(^|[/{,(|])\.\.([/},)|]|$)/.test(value)) {
    return `${shown} can expand to ".." and leave the workspace; name paths inside it`;
  }
  if (what === 'path' && /[*?[\]{}]/.test(value)) return `${shown} looks like a glob; evidence paths must be literal files`;
  return null;
}
