/**
 * PostToolUse through the real CLI with real hook scripts: a failing lint keeps the edit out of the
 * workspace (taken back from its checkpoint, the model told why) and the corrected edit lands; a failing
 * lint on a staged command keeps the command's changes out (never applied); a trusted project formatter's
 * rewrite of the edited file lands while its writes outside the step's edit globs and outside the
 * workspace do not (refused and reported), and a blocking hook's own writes are taken back too.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { done, replace, sh } from '../../support/messages-server/toolUses';
import { put, runHookMission, settings, story, use, useScenes } from './hookScene';

/** A lint that fails (exit 2, the reason on stderr) while any .js file under src/ holds "var ". */
const LINT = `#!/bin/bash
cat > /dev/null
cd "$CLAUDE_PROJECT_DIR"
if grep -rn "var " src --include=*.js >&2; then
  echo "lint: use const or let, not var" >&2
  exit 2
fi
exit 0
`;

describe('hooks: PostToolUse', function () {
  this.timeout(180_000);
  const scenes = useScenes();

  it('a failing lint keeps the edit out of the workspace, the model reads why, and the corrected edit lands', async () => {
    const s = scenes.scene();
    put(s.ws, '.claude/hooks/lint.sh', LINT, 0o755);
    put(s.ws, '.claude/settings.json', settings({ PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ command: '.claude/hooks/lint.sh' }] }] }));
    const m = await runHookMission(s, {
      args: ['--trust-hooks'],
      steps: [
        {
          id: 's1',
          edit: ['src/**'],
          turns: [
            use(replace('bad', 'src/app.js', 'exports.answer = 41;', 'var x = 42;\nexports.answer = x;')),
            use(replace('good', 'src/app.js', 'exports.answer = 41;', 'const x = 42;\nexports.answer = x;')),
            done(),
          ],
        },
      ],
    });
    const bad = m.toolResults.get('bad');
    assert.ok(bad?.isError, `the blocked edit is an error for the model${story(m)}`);
    assert.match(bad.content, /use const or let, not var/, 'the lint output reached the model');
    assert.match(bad.content, /taken back/, 'the model is told the edit was taken back');
    assert.equal(m.toolResults.get('good')?.isError, false, story(m));
    assert.equal(readFileSync(join(s.ws, 'src/app.js'), 'utf8'), 'const x = 42;\nexports.answer = x;\n', 'the corrected edit landed');
    assert.equal(m.code, 0, story(m));
  });

  it("a failing lint on a staged command: the command's changes are never applied", async () => {
    const s = scenes.scene();
    put(s.ws, '.claude/hooks/lint.sh', LINT, 0o755);
    put(s.ws, '.claude/settings.json', settings({ PostToolUse: [{ matcher: 'Bash', hooks: [{ command: '.claude/hooks/lint.sh' }] }] }));
    put(s.ws, 'scripts/gen.js', "require('fs').writeFileSync('src/gen.js', 'var generated = 1;\\n');\n");
    const m = await runHookMission(s, {
      args: ['--trust-hooks'],
      steps: [{ id: 's1', edit: ['src/**'], commands: ['node scripts/gen.js'], turns: [use(sh('gen', 'node scripts/gen.js')), done()] }],
    });
    assert.equal(existsSync(join(s.ws, 'src/gen.js')), false, `the generated file never reached the workspace${story(m)}`);
    const seen = m.toolResults.get('gen');
    assert.ok(seen?.isError, story(m));
    assert.match(seen.content, /use const or let, not var/);
    assert.match(seen.content, /NOT applied to the workspace[^\n]*src\/gen\.js/, 'the model is told what was withheld');
  });

  it("a trusted formatter's rewrite lands; its writes outside the edit globs and outside the workspace do not", async () => {
    const s = scenes.scene();
    put(
      s.ws,
      '.claude/hooks/format.sh',
      `#!/bin/bash
file=$(node -e 'let r="";process.stdin.on("data",c=>r+=c).on("end",()=>process.stdout.write(JSON.parse(r).tool_input.file_path))')
sed -i 's/  */ /g' "$file"
echo formatted >> "$CLAUDE_PROJECT_DIR/docs/format.log"
echo escaped > "$CLAUDE_PROJECT_DIR/../outside.txt"
echo escaped > "$HOME/escaped.txt"
exit 0
`,
      0o755,
    );
    put(s.ws, 'docs/format.log', '');
    put(s.ws, '.claude/settings.json', settings({ PostToolUse: [{ matcher: 'Edit', hooks: [{ command: '.claude/hooks/format.sh' }] }] }));
    const m = await runHookMission(s, {
      args: ['--trust-hooks'],
      steps: [{ id: 's1', edit: ['src/**'], turns: [use(replace('e', 'src/app.js', 'exports.answer = 41;', 'exports.answer   =    42;')), done()] }],
    });
    assert.equal(readFileSync(join(s.ws, 'src/app.js'), 'utf8'), 'exports.answer = 42;\n', `the formatter's rewrite of the edited file landed${story(m)}`);
    assert.equal(readFileSync(join(s.ws, 'docs/format.log'), 'utf8'), '', 'its write outside the edit globs did not land');
    assert.equal(existsSync(join(s.root, 'outside.txt')), false, 'its write beside the workspace did not land');
    assert.equal(existsSync(join(s.home, 'escaped.txt')), false, 'its write to the home did not land');
    assert.match(m.toolResults.get('e')?.content ?? '', /hook write refused[^\n]*docs\/format\.log/, 'the refused write is reported to the model');
    const run = m.hookRuns.find((r) => r.event === 'PostToolUse');
    assert.ok(run, story(m));
  });

  it("a blocking hook's own writes are taken back with the edit", async () => {
    const s = scenes.scene();
    put(
      s.ws,
      '.claude/hooks/rewrite-then-block.sh',
      `#!/bin/bash
cat > /dev/null
echo "// touched by the hook" >> "$CLAUDE_PROJECT_DIR/src/app.js"
echo "// and this one" > "$CLAUDE_PROJECT_DIR/src/other.js"
echo '{"decision":"block","reason":"not in this release"}'
`,
      0o755,
    );
    put(s.ws, '.claude/settings.json', settings({ PostToolUse: [{ matcher: 'Edit', hooks: [{ command: '.claude/hooks/rewrite-then-block.sh' }] }] }));
    const m = await runHookMission(s, {
      args: ['--trust-hooks'],
      steps: [{ id: 's1', edit: ['src/**'], turns: [use(replace('e', 'src/app.js', '41', '43')), done()] }],
    });
    assert.equal(readFileSync(join(s.ws, 'src/app.js'), 'utf8'), 'exports.answer = 41;\n', `the edit and the hook's append were taken back${story(m)}`);
    assert.equal(existsSync(join(s.ws, 'src/other.js')), false, "the hook's new file never landed");
    assert.match(m.toolResults.get('e')?.content ?? '', /not in this release/, story(m));
  });
});
