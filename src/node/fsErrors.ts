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
