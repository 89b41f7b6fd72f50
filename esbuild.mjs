// One build for every target (docs/architecture.md "Bundles"). Type-checking is separate: `tsc --noEmit -p .`.
//
//   node esbuild.mjs               development build (sourcemaps, not minified)
//   node esbuild.mjs --production  minified, no sourcemaps (what `npm run build` / `vsce package` use)
//   node esbuild.mjs --watch       rebuild on change
//
// Entries whose source file does not exist yet are skipped with a note, so the build stays green while
// other areas land. Tests are bundled next to the product: out/test/integration/*.js are loaded by the
// extension host (vscode stays external there too), out/test/e2e is not needed (E2E runs under tsx).
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deriveHostSchema, forbidWebviewValues } from './scripts/webviewBuild.mjs';

const root = dirname(fileURLToPath(import.meta.url));
const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');

/** Refuses `vscode` in a bundle that must run without it (dist/core.js, dist/cli.js, the webview). */
const forbidVscode = (bundle) => ({
  name: 'forbid-vscode',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (resolveArgs) => ({
      errors: [{ text: `${bundle} must not import 'vscode' (imported by ${relative(root, resolveArgs.importer)})` }],
    }));
  },
});

/**
 * Keeps the activation bundle small (docs/architecture.md, "Bundles"): dist/extension.js may not pull in zod,
 * the model SDK or the engine; those live in dist/host.js and dist/engine.js, which it loads on first use.
 */
const forbidHeavy = (bundle) => ({
  name: 'forbid-heavy',
  setup(build) {
    build.onResolve({ filter: /^(zod|@anthropic-ai\/sdk|openai)(\/.*)?$/ }, (resolveArgs) => ({
      errors: [
        {
          text: `${bundle} must not import '${resolveArgs.path}' (imported by ${relative(root, resolveArgs.importer)}); load it from dist/host.js or dist/engine.js instead`,
        },
      ],
    }));
  },
});

/**
 * Keeps the library pure (issue 19): dist/core.js reaches the disk, the OS, processes and the model
 * providers only through its ports, so neither SDK nor fs/os/child_process may enter it
 * (test/unit/architecture/coreIsPure.test.ts checks the same from the sources and the metafile).
 */
const forbidImpure = (bundle) => ({
  name: 'forbid-impure',
  setup(build) {
    build.onResolve({ filter: /^(?:(?:node:)?(?:fs|os|child_process)|@anthropic-ai\/sdk|openai)(?:\/.*)?$/ }, (resolveArgs) => ({
      errors: [{ text: `${bundle} must not import '${resolveArgs.path}' (imported by ${relative(root, resolveArgs.importer)}); take it through a port` }],
    }));
  },
});

/** Prints one line per rebuild in watch mode so the developer sees when a bundle is fresh. */
const reportRebuilds = (label) => ({
  name: 'report-rebuilds',
  setup(build) {
    build.onEnd((result) => {
      if (watch) console.log(`[watch] ${label}: ${result.errors.length ? `${result.errors.length} error(s)` : 'built'}`);
    });
  },
});

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  absWorkingDir: root,
};

const nodeCommon = { ...common, platform: 'node', target: 'node20', format: 'cjs' };

/** Every file under `dir` (relative to the repo root) whose name ends with `suffix`, sorted. */
function findFiles(dir, suffix) {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  const found = [];
  for (const name of readdirSync(abs)) {
    const path = join(abs, name);
    if (statSync(path).isDirectory()) found.push(...findFiles(join(dir, name), suffix));
    else if (name.endsWith(suffix)) found.push(join(dir, name).split(sep).join('/'));
  }
  return found.sort();
}

const exists = (file) => existsSync(join(root, file));

/** The build targets; each is [label, options], or a note when its entry has not landed yet. */
function targets() {
  const list = [];
  const skip = (label, file) => console.log(`esbuild: skipping ${label} (${file} does not exist yet)`);

  const entry = (label, file, options) => (exists(file) ? list.push([label, { ...options, entryPoints: [file] }]) : skip(label, file));

  // The extension in three bundles: activation (tiny), the host (on first use), the engine (first mission).
  entry('dist/extension.js', 'src/vscode/extension.ts', {
    ...nodeCommon,
    outfile: 'dist/extension.js',
    external: ['vscode'],
    plugins: [forbidHeavy('dist/extension.js')],
  });
  entry('dist/host.js', 'src/vscode/host.ts', {
    ...nodeCommon,
    outfile: 'dist/host.js',
    external: ['vscode'],
  });
  entry('dist/engine.js', 'src/vscode/mission/engineEntry.ts', {
    ...nodeCommon,
    outfile: 'dist/engine.js',
    external: ['vscode'],
  });
  entry('dist/core.js', 'src/core/index.ts', {
    ...nodeCommon,
    outfile: 'dist/core.js',
    plugins: [forbidVscode('dist/core.js'), forbidImpure('dist/core.js')],
  });
  entry('dist/cli.js', 'src/node/cli.ts', {
    ...nodeCommon,
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    plugins: [forbidVscode('dist/cli.js')],
  });
  entry('media/webview.js', 'src/webview/main.ts', {
    ...common,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    outfile: 'media/webview.js',
    plugins: [forbidVscode('media/webview.js'), forbidWebviewValues(root, 'media/webview.js'), deriveHostSchema(root)],
  });

  // The integration tests run inside the extension host: the runner (index.ts) and each *.itest.ts are
  // separate files so mocha can load them one by one; mocha itself is required from node_modules.
  const integration = findFiles('test/integration', '.itest.ts');
  if (exists('test/integration/index.ts')) {
    list.push([
      'out/test/integration',
      {
        ...nodeCommon,
        sourcemap: 'inline', // stack traces from the host point at the .ts lines
        minify: false,
        entryPoints: ['test/integration/index.ts', ...integration],
        outbase: 'test/integration',
        outdir: 'out/test/integration',
        external: ['vscode', 'mocha'],
      },
    ]);
  }
  // The test MCP server (a stdio server on the official SDK) for the integration and E2E tiers: one file
  // a test names in a workspace's .vscode/mcp.json, run with node (inside the OS sandbox, like any server).
  entry('out/test/mcp/stdioServer.js', 'test/support/mcp/stdioServer.ts', {
    ...nodeCommon,
    sourcemap: false,
    minify: false,
    outfile: 'out/test/mcp/stdioServer.js',
  });
  // The sample MCP server (examples/mcp-server): one file with the SDK inside, so a user's workspace can run
  // it with plain node, confined, with no node_modules of its own (docs/user-setup.md).
  entry('dist/sample-mcp-server.cjs', 'examples/mcp-server/server.ts', {
    ...nodeCommon,
    sourcemap: false,
    outfile: 'dist/sample-mcp-server.cjs',
    banner: { js: '#!/usr/bin/env node' },
  });
  return list;
}

/** Static assets the webview loads from media/ (it may load nothing from node_modules at run time). */
function copyAssets() {
  const assets = [
    ['node_modules/@vscode/codicons/dist/codicon.css', 'media/codicon.css'],
    ['node_modules/@vscode/codicons/dist/codicon.ttf', 'media/codicon.ttf'],
  ];
  for (const [from, to] of assets) {
    if (!exists(from)) continue;
    mkdirSync(dirname(join(root, to)), { recursive: true });
    copyFileSync(join(root, from), join(root, to));
  }
}

async function main() {
  copyAssets();
  const list = targets();
  if (watch) {
    const contexts = await Promise.all(
      list.map(([label, options]) => esbuild.context({ ...options, plugins: [...(options.plugins ?? []), reportRebuilds(label)] })),
    );
    await Promise.all(contexts.map((context) => context.watch()));
    console.log(`esbuild: watching ${list.length} target(s); Ctrl-C to stop`);
    return;
  }
  const started = Date.now();
  // A production build writes no maps; remove the previous build's, which would describe other code.
  for (const [, options] of list) if (options.outfile && options.sourcemap === false) rmSync(join(root, `${options.outfile}.map`), { force: true });
  const results = await Promise.allSettled(list.map(([, options]) => esbuild.build(options)));
  const failed = results.map((result, index) => [result, list[index][0]]).filter(([result]) => result.status === 'rejected');
  if (failed.length > 0) {
    // esbuild has already printed the errors (logLevel 'warning'); name the targets that failed.
    console.error(`esbuild: ${failed.length} target(s) failed: ${failed.map(([, label]) => label).join(', ')}`);
    process.exit(1);
  }
  console.log(`esbuild: built ${list.map(([label]) => label).join(', ')} in ${Date.now() - started} ms${production ? ' (production)' : ''}`);
}

await main();
