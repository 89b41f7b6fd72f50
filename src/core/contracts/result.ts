/**
 * The one success-or-failure return value (docs/architecture.md, "Results, not exceptions"). A function
 * that can fail in a way its caller must handle returns `Result<T, E>`: the value on success, or a typed
 * error, which each module names for itself (a `PathDenial`, a `RevertFailure`), never a new envelope.
 *
 * Plain data, so a Result can be compared with `deepEqual` in a test. Shapes that cross a trust boundary
 * keep their own zod schemas (a recorded MCP call, a tool-call record); this type is for values inside the
 * process.
 */
export type Ok<T> = { ok: true; value: T };
export type Err<E> = { ok: false; error: E };
export type Result<T, E> = Ok<T> | Err<E>;

/** Success. `ok()` with no value is a `Result<void, E>`. */
export function ok(): Ok<void>;
export function ok<T>(value: T): Ok<T>;
export function ok<T>(value?: T): Ok<T | undefined> {
  return { ok: true, value };
}

/** Failure, carrying the module's own error type. */
export function err<E>(error: E): Err<E> {
  return { ok: false, error };
}
