import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { deriveHostSchema, forbidWebviewValues } from '../../../scripts/webviewBuild.mjs';

/**
 * The webview bundle (media/webview.js) takes only types from the protocol and the core
 * (docs/architecture.md, "Bundles"): the build refuses a value import of zod, of src/core or of
 * src/webview/protocol.ts there, and gives the webview the protocol's host-message schema as data. Checked
 * the way esbuild.mjs builds it, with its own plugins: the real bundle's inputs, then probes that must fail.
 */
const repoRoot = join(__dirname, '..', '..', '..');
const webviewDir = join(repoRoot, 'src', 'webview');

const options = (entry: BuildOptions): BuildOptions => ({
  ...entry,
  absWorkingDir: repoRoot,
  bundle: true,
  platform: 'browser',
  target: 'es2022',
  format: 'iife',
  write: false,
  metafile: true,
  logLevel: 'silent',
  plugins: [forbidWebviewValues(repoRoot, 'media/webview.js'), deriveHostSchema(repoRoot)],
});

/** The build error of a one-line module placed in src/webview, or '' when it builds. */
async function probe(contents: string): Promise<string> {
  try {
    await build(options({ stdin: { contents, resolveDir: webviewDir, sourcefile: 'probe.ts', loader: 'ts' } }));
    return '';
  } catch (error) {
    return (error as { errors?: { text: string }[] }).errors?.map((e) => e.text).join('\n') ?? String(error);
  }
}

describe('architecture: the webview bundle holds no zod and no core value', function () {
  this.timeout(120_000);

  it('builds media/webview.js from no zod, no src/core module and not the protocol module, with the derived schema inside', async () => {
    const result = await build(options({ entryPoints: ['src/webview/main.ts'] }));
    const inputs = Object.keys(result.metafile?.inputs ?? {});
    assert.ok(inputs.includes('src/webview/main.ts'), 'the bundle was built from the webview app');
    assert.deepEqual(
      inputs.filter((i) => /(?:^|\/)node_modules\/zod\//.test(i) || i.startsWith('src/core/') || i === 'src/webview/protocol.ts'),
      [],
    );
    assert.ok(inputs.includes('derived:virtual:host-message-schema'), 'the host-message schema is derived at build time');
    const text = result.outputFiles?.[0]?.text ?? '';
    assert.match(text, /didRequestQueueFocus[\s\S]*additionalProperties/, 'the schema (every message type, as JSON Schema) is in the bundle');
  });

  it('refuses a value import of zod, of the protocol module or of a core module', async () => {
    assert.match(await probe("import { z } from 'zod'; console.log(z);"), /must not import a value of 'zod' \(imported by src\/webview\/probe\.ts\)/);
    assert.match(
      await probe("import { FromWebviewSchema } from './protocol'; console.log(FromWebviewSchema);"),
      /must not import a value of src\/webview\/protocol\.ts/,
    );
    assert.match(await probe("import { isDirect } from '../core/mission/direct'; console.log(isDirect);"), /must not import a value of src\/core/);
  });

  it('lets a module take types from the protocol and the core', async () => {
    assert.equal(
      await probe(
        "import type { ToWebview } from './protocol'; import type { Plan } from '../core/contracts/plan'; const m: ToWebview['type'] = 'state'; const p: Plan | null = null; console.log(m, p);",
      ),
      '',
    );
  });
});
