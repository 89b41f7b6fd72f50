/**
 * Modules the build provides (esbuild.mjs). `virtual:host-message-schema`: `ToWebviewSchema` (./protocol.ts)
 * as JSON Schema, derived at build time by the `derive-host-schema` plugin, so the webview checks host
 * messages against the protocol itself with no zod in its bundle.
 */
declare module 'virtual:host-message-schema' {
  const schema: import('./shapeCheck').JsonSchema;
  export default schema;
}
