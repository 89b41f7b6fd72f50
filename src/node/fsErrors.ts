/**
 * The file-system conditions the Node adapters handle by name. A catch that expects one of them handles
 * exactly that and lets any other error through: a permission or I/O fault is a failure to report, never
 * a quiet "not there".
 */

/** The path is not there: ENOENT, or ENOTDIR (a parent on the way is a file). */
export function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** `fallback` when `error` is a missing path; any other error is thrown on. */
export function whenMissing<T>(error: unknown, fallback: T): T {
  if (isMissing(error)) return fallback;
  throw error;
}

/** The path is there but this user may not read, list or search it: EACCES or EPERM. */
export function isDenied(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EACCES' || code === 'EPERM';
}

/** The error carries one of these codes (`EEXIST`, `ENOTEMPTY`, `ELOOP`…): a condition a catch names itself. */
export function hasCode(error: unknown, ...codes: readonly string[]): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && codes.includes(code);
}
