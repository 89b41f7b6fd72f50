/**
 * What a staged command may cost the judge, as a specification: the caps it is listed under, what it says
 * past one, and which folders it keeps whole without walking them.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { authority, type AuthorityInput } from '../../support/fixtures';
import { policyFor } from '../../../src/core/policy/policy';
import { capText, LAYER_BYTE_CAP, LAYER_ENTRY_CAP, listingOptionsFor } from '../../../src/core/tools/stagedCaps';
import { privacyFrom } from '../../../src/core/tools/stepPrivacy';
import { nodePolicyFs } from '../../../src/node/nodePolicyFs';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-caps-')));
after(() => fs.rmSync(root, { recursive: true, force: true }));

const optionsFor = (granted: AuthorityInput, allowSensitive: string[] = []) =>
  listingOptionsFor(policyFor(root, { id: 's', authority: authority(granted) }, { fs: nodePolicyFs, ignoreText: null, allowSensitive }));

describe('staged caps', () => {
  it('lists every command under the caps on entries and bytes', () => {
    const o = optionsFor({ edit: ['src/**'] });
    assert.equal(o.maxEntries, LAYER_ENTRY_CAP);
    assert.equal(o.maxBytes, LAYER_BYTE_CAP);
  });

  it('says which cap, and that nothing was applied or kept', () => {
    assert.match(capText({ cap: 'entries', limit: 200_000 }), /more than 200,000 entries.*cap on entries per command.*nothing it wrote was applied or kept/);
    assert.match(capText({ cap: 'bytes', limit: 2 * 1024 ** 3 }), /more than 2,048 MB.*cap on bytes per command/);
  });

  it('keeps dependency folders and caches whole unless an edit glob reaches into them', () => {
    const keepWhole =
      (granted: AuthorityInput, allow: string[] = []) =>
      (p: string): boolean =>
        optionsFor(granted, allow).keepWhole?.(p, true) ?? false;
    const src = keepWhole({ edit: ['src/**'] });
    for (const p of ['node_modules', 'packages/a/node_modules', '.venv', '__pycache__']) assert.ok(src(p), p);
    assert.ok(!src('src/__pycache__'), 'a cache inside the globs is walked: what is in the globs is judged');
    assert.ok(!src('dist') && !src('src'), 'an ordinary folder is walked');
    assert.ok(!src('.git') && !src('.git/objects'), "git's folder is always judged");
    const everything = keepWhole({ edit: ['**'] });
    assert.ok(everything('node_modules'), 'node_modules is protected: an edit glob alone does not reach into it');
    assert.ok(!everything('.venv'), 'a .venv an edit glob reaches is walked');
    assert.ok(!keepWhole({ edit: ['**'] }, ['node_modules/**'])('node_modules'), 'with the sensitive grant, node_modules is judged');
  });

  it('keeps a new folder the step keeps for itself whole, unless an edit glob reaches into it or the workspace has it', () => {
    const policy = policyFor(root, { id: 's', authority: authority({ edit: ['src/**', 'build/reports/**'] }) }, { fs: nodePolicyFs, ignoreText: null });
    // The step's privacy: dist/ and build/ ignored as the attempt began, out/ holds a file git tracks.
    const privacy = privacyFrom({
      ignoreFiles: [{ dir: '', text: 'dist/\nbuild/\nout/\n', name: '.gitignore' }],
      excludes: [],
      tracked: ['out/keep.txt'],
    });
    const keepWhole = listingOptionsFor(policy, privacy).keepWhole ?? (() => false);
    assert.ok(keepWhole('dist', false), 'a new dist/ is kept whole: the judge would keep it whatever it holds');
    assert.ok(!keepWhole('dist', true), "the workspace's own dist/ is walked: each entry is judged (and named) on its own");
    assert.ok(!keepWhole('build', false), 'an edit glob reaches into build/: what it may apply there is judged');
    assert.ok(!keepWhole('out', false), 'a folder holding a file git tracks is never private');
    assert.ok(!keepWhole('lib', false), 'an ordinary new folder is walked');
  });
});
