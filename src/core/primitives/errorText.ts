/**
 * What a caught value says, as text. `catch (e)` gives `unknown`: an `Error` (its message), or anything
 * else a library or a test threw (a string, an object, `undefined`), shown with `String`.
 */

/** An `Error`'s message; anything else thrown, as `String` shows it. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** For logs a maintainer reads: an `Error`'s stack (which starts with its message), else `errorText`. */
export function errorDetail(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** The caught value as an `Error`, for an API that takes one: an `Error` as is, anything else wrapped with its text. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
