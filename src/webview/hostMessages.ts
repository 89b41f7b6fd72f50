/**
 * The webview's check of what the host posts, and of the snapshot it restores from getState (which an older
 * version of the extension may have saved). The host is the extension itself and validates what it
 * receives with zod; in this direction the check only keeps a stale or malformed message from breaking the
 * render. It is not written by hand: the schema is `ToWebviewSchema` in ./protocol.ts as JSON Schema,
 * derived by the build (esbuild.mjs, `derive-host-schema`) so zod stays out of the webview bundle, and
 * checked by ./shapeCheck.ts.
 */
import type { ToWebview } from './protocol';
import { matches, type JsonSchema } from './shapeCheck';

/** A parser of host messages against `schema` (the derived JSON Schema of `ToWebview`). */
export function hostMessageParser(schema: JsonSchema): (data: unknown) => ToWebview | undefined {
  return (data) => (matches(data, schema) ? (data as ToWebview) : undefined);
}
