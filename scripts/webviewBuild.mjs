// The webview bundle's two build plugins (esbuild.mjs uses them; test/unit/architecture/webviewBundle.test.ts
// runs them on probes). Plain JavaScript because esbuild.mjs runs under plain node.
//
//   forbidWebviewValues — the webview takes only types from the protocol and the core: a value import of
//     zod, of anything under src/core, or of src/webview/protocol.ts is a build error (type-only imports
//     are erased before esbuild resolves anything, so every import it sees is a value import);
//   deriveHostSchema — provides `virtual:host-message-schema`: ToWebviewSchema (src/webview/protocol.ts) as
//     JSON Schema, computed from the protocol at each build, so the webview checks host messages against
//     the protocol itself and no hand-written mirror can drift from it.
import * as esbuild from 'esbuild';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

const VIRTUAL_SCHEMA = 'virtual:host-message-schema';

/** Refuses zod and core or protocol values in a webview bundle (`bundle` names it in the error). */
export function forbidWebviewValues(root, bundle) {
  const core = join(root, 'src', 'core') + sep;
  const protocol = join(root, 'src', 'webview', 'protocol');
  const refuse = (what, importer) => ({
    errors: [{ text: `${bundle} must not import a value of ${what} (imported by ${relative(root, importer)}); import its types with \`import type\`` }],
  });
  return {
    name: 'forbid-webview-values',
    setup(build) {
      build.onResolve({ filter: /^zod(\/.*)?$/ }, (args) => refuse(`'${args.path}'`, args.importer));
      build.onResolve({ filter: /^\./ }, (args) => {
        const target = resolve(args.resolveDir || dirname(args.importer), args.path).replace(/\.ts$/, '');
        if (target.startsWith(core)) return refuse(`src/core (${relative(root, target)})`, args.importer);
        if (target === protocol) return refuse('src/webview/protocol.ts (it holds the zod schemas)', args.importer);
        return undefined;
      });
    },
  };
}

/** ToWebviewSchema as JSON Schema, and the source files it was computed from (watched in --watch). */
async function hostSchema(root) {
  const result = await esbuild.build({
    stdin: { contents: "export { hostMessageJsonSchema } from './protocol';", resolveDir: join(root, 'src', 'webview'), loader: 'ts' },
    absWorkingDir: root,
    bundle: true,
    // Evaluated in this very process below: no syntax to lower, so no target.
    platform: 'node',
    format: 'cjs',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const module = { exports: {} };
  // The protocol module, bundled just now from our own sources, evaluated to call its derivation.
  new Function('module', 'exports', 'require', result.outputFiles[0].text)(module, module.exports, createRequire(join(root, 'package.json')));
  const watchFiles = Object.keys(result.metafile.inputs)
    .filter((input) => !input.startsWith('<stdin>'))
    .map((input) => join(root, input));
  return { schema: module.exports.hostMessageJsonSchema(), watchFiles };
}

/** Provides `virtual:host-message-schema` to the webview bundle. */
export function deriveHostSchema(root) {
  return {
    name: 'derive-host-schema',
    setup(build) {
      build.onResolve({ filter: /^virtual:host-message-schema$/ }, () => ({ path: VIRTUAL_SCHEMA, namespace: 'derived' }));
      build.onLoad({ filter: /.*/, namespace: 'derived' }, async () => {
        const { schema, watchFiles } = await hostSchema(root);
        return { contents: JSON.stringify(schema), loader: 'json', watchFiles };
      });
    },
  };
}
